#include <algorithm>
#include <cstdint>
#include <functional>
#include <iostream>
#include <iterator>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

int main()
{
    std::string first;
    std::getline(std::cin, first);
    std::istringstream ss(first);
    std::vector<std::uint64_t> heaps{std::istream_iterator<std::uint64_t>(ss),
                                     std::istream_iterator<std::uint64_t>()};

    auto nonzero = [](std::uint64_t n) { return n != 0; };
    std::uint64_t heap, take;
    while (std::any_of(heaps.begin(), heaps.end(), nonzero)) {
        std::uint64_t s = std::accumulate(heaps.begin(), heaps.end(), std::uint64_t(0),
                                          std::bit_xor<std::uint64_t>());
        auto it = std::find_if(heaps.begin(), heaps.end(),
                               [s](std::uint64_t n) { return s != 0 && (n ^ s) < n; });
        if (it == heaps.end()) {
            // zero nim-sum, nothing wins: remove one counter somewhere
            it = std::find_if(heaps.begin(), heaps.end(), nonzero);
            take = 1;
        } else {
            take = *it - (*it ^ s);
        }
        *it -= take;
        std::cout << (it - heaps.begin()) + 1 << ' ' << take << std::endl;

        if (!(std::cin >> heap >> take))
            break;
        heaps[heap - 1] -= take;
    }
    return 0;
}
