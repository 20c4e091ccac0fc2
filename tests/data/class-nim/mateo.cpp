// Mateo - Nim bot
#include <bits/stdc++.h>
using namespace std;

struct Move {
    int heap;
    long long take;
};

struct Game {
    vector<long long> h;

    bool empty() const {
        return all_of(h.begin(), h.end(), [](long long x) { return x == 0; });
    }
    void play(const Move& m) { h[m.heap] -= m.take; }

    Move best() const {
        long long s = 0;
        for (auto x : h) s ^= x;
        int big = 0;
        for (int i = 0; i < (int)h.size(); i++) {
            if (s && (h[i] ^ s) < h[i]) return {i, h[i] - (h[i] ^ s)};
            if (h[i] > h[big]) big = i;
        }
        return {big, h[big]};  // we are losing, end it quickly
    }
};

int main() {
    ios::sync_with_stdio(false);
    Game g;
    long long v;
    while (cin.peek() != '\n' && cin >> v) {
        g.h.push_back(v);
        while (cin.peek() == ' ') cin.get();
    }
    while (!g.empty()) {
        Move m = g.best();
        g.play(m);
        cout << m.heap + 1 << " " << m.take << "\n" << flush;
        Move o;
        if (!(cin >> o.heap >> o.take)) break;
        o.heap--;
        g.play(o);
    }
}
