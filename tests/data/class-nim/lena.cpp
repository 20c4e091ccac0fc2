#include <iostream>
#include <sstream>
#include <string>
#include <vector>
using namespace std;

typedef unsigned long long u64;

static u64 nimSum(const vector<u64>& v) {
    u64 r = 0;
    for (u64 x : v) r ^= x;
    return r;
}

static bool gameOver(const vector<u64>& v) {
    for (u64 x : v)
        if (x) return false;
    return true;
}

// returns {index, amount}
static pair<size_t, u64> chooseMove(const vector<u64>& v) {
    u64 s = nimSum(v);
    if (s != 0) {
        for (size_t i = 0; i < v.size(); ++i)
            if ((v[i] ^ s) < v[i]) return {i, v[i] - (v[i] ^ s)};
    }
    // no winning move exists: take one counter from the last non-empty heap
    size_t i = v.size() - 1;
    while (v[i] == 0) --i;
    return {i, 1};
}

int main() {
    string line;
    if (!getline(cin, line)) return 0;
    vector<u64> heaps;
    istringstream in(line);
    u64 x;
    while (in >> x) heaps.push_back(x);

    while (!gameOver(heaps)) {
        pair<size_t, u64> mv = chooseMove(heaps);
        heaps[mv.first] -= mv.second;
        cout << mv.first + 1 << ' ' << mv.second << endl;
        if (!getline(cin, line)) break;
        istringstream om(line);
        size_t h;
        u64 k;
        if (!(om >> h >> k)) break;
        heaps[h - 1] -= k;
    }
    return 0;
}
