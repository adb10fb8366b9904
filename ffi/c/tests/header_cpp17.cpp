// The header compiles warning-free as C++17 and links against the shared library (its SONAME).
#include <arbiter.h>

#include <cstdio>
#include <cstring>
#include <memory>

int main() {
    std::printf("libarbiter %s\n", arbiter_version());
    ArbiterTrax *raw = nullptr;
    if (arbiter_trax_new("8x8", 3, &raw) != ARBITER_OK) return 1;
    // A handle owned the C++ way.
    std::unique_ptr<ArbiterTrax, decltype(&arbiter_trax_free)> game(raw, &arbiter_trax_free);
    if (arbiter_trax_play(game.get(), "@0+", 3) != ARBITER_OK) return 1;
    ArbiterStatus status = arbiter_trax_play(game.get(), "A1+", 3);
    std::printf("A1+ again: status %d, %s\n", static_cast<int>(status), arbiter_last_error());
    return status == ARBITER_ILLEGAL_MOVE && std::strstr(arbiter_last_error(), "occupied") ? 0 : 1;
}
