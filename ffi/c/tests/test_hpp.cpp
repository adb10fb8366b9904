// The C++17 wrapper (include/arbiter.hpp): owning handles that free themselves, moves that leave
// nothing behind, std::string results and arbiter::Error with the C status and message. Every
// game and the match are played to their end through it.
#include <arbiter.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>

static int failures = 0, checks = 0;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        checks++;                                                                   \
        if (!(cond)) {                                                              \
            failures++;                                                             \
            std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                           \
    } while (0)

// `call` throws arbiter::Error with `status` and a message containing `words`.
template <class F>
static void throws(F call, ArbiterStatus status, const char *words) {
    try {
        call();
        CHECK(!"no exception");
    } catch (const arbiter::Error &e) {
        CHECK(e.status() == status);
        CHECK(std::strstr(e.what(), words) != nullptr);
    }
}

static bool contains(const std::string &text, const char *words) { return text.find(words) != std::string::npos; }

// Handles are owned once: no copies, moves that empty the source.
static_assert(!std::is_copy_constructible_v<arbiter::Trax> && !std::is_copy_assignable_v<arbiter::Trax>);
static_assert(std::is_nothrow_move_constructible_v<arbiter::TripleTriad>);
static_assert(std::is_nothrow_move_assignable_v<arbiter::TripleTriadMatch>);
static_assert(!std::is_convertible_v<ArbiterNantong *, arbiter::Nantong>);

static void triple_triad() {
    auto g = arbiter::TripleTriad::from_preset("ff8", 42);
    std::string before = g.to_json();
    throws([&] { g.play("7@4"); }, ARBITER_PARSE_ERROR, "bad move \"7@4\"");
    throws([&] { g.choose("grandmaster", 1); }, ARBITER_BAD_ARGUMENT, "unknown level \"grandmaster\"");
    throws([&] { g.observation(2); }, ARBITER_BAD_ARGUMENT, "no player 2");
    CHECK(g.to_json() == before);
    auto copy = g.clone();
    CHECK(g.num_actions() == 45);
    CHECK(contains(arbiter::TripleTriad::levels(), "\"greedy\""));
    for (uint64_t seed = 1; !g.is_over(); seed++) {
        std::vector<uint32_t> legal = g.legal_actions();
        uint32_t action = g.choose("greedy", seed);
        CHECK(!legal.empty() && std::count(legal.begin(), legal.end(), action) == 1);
        CHECK(g.action_id(g.action_text(action)) == action);
        CHECK(g.legal_action_mask().at(action) == 1);
        g.play_action(action);
        CHECK(g.last_captures().front() == '{');
    }
    CHECK(g.to_move() == -1 && g.outcome() >= -2 && g.outcome() <= 1);
    CHECK(g.next_player() == 1 - copy.next_player());  // nine moves later
    CHECK(g.score(0) + g.score(1) == 10);
    throws([&] { g.solve(); }, ARBITER_GAME_OVER, "game over");
    // The copy is untouched and independent, and a save reads back.
    CHECK(copy.to_json() == before);
    CHECK(arbiter::TripleTriad::from_json(before).to_json() == before);
    auto best = copy.solve();
    CHECK(best.value >= -9 && best.value <= 9);
    CHECK(contains(copy.observation(0), "\"hand\""));
    CHECK(copy.observation_tensor(1).size() == 463);
    throws([] { arbiter::TripleTriad::from_json("{"); }, ARBITER_PARSE_ERROR, "EOF");
}

static void moves_and_adoption() {
    arbiter::Trax a("8x8");
    a.play("@0+");
    arbiter::Trax b = std::move(a);
    CHECK(b.tiles() == 1);
    // A moved-from object holds nothing: a call on it is the C library's NULL handle error.
    throws([&] { a.tiles(); }, ARBITER_NULL_POINTER, "handle is NULL");  // NOLINT(bugprone-use-after-move)
    a = std::move(b);
    CHECK(a.tiles() == 1 && b.get() == nullptr);
    a = arbiter::Trax("loop");  // the old game is freed (valgrind and ASan would see a leak)
    CHECK(a.variant() == "loop");
    // A C handle adopted: the object frees it.
    ArbiterTrax *raw = nullptr;
    CHECK(arbiter_trax_new("unbounded", 9, &raw) == ARBITER_OK);
    arbiter::Trax adopted(arbiter::adopt, raw);
    CHECK(adopted.get() == raw && adopted.variant() == "unbounded");
    throws([] { arbiter::Trax("9x9"); }, ARBITER_PARSE_ERROR, "unknown Trax variant \"9x9\"");
}

static void trax() {
    auto t = arbiter::Trax::from_record("8x8", "1. @0/ 2. B1\\ 3. B2/");
    CHECK(t.is_over() && t.outcome() >= 0);
    CHECK(contains(t.win(), "\"winner\""));
    CHECK(t.legal_actions().empty());
    throws([&] { t.choose("random", 1); }, ARBITER_GAME_OVER, "over");
    t.undo();
    CHECK(!t.is_over() && t.win() == "null");
    auto [cols, rows] = t.size();
    CHECK(cols >= 1 && rows >= 1);
    CHECK(t.tile_at(1, 1) != 0 && t.tile_at(cols + 1, 1) == 0);
    CHECK(contains(t.last_turn(), "\"forced\""));
    auto limited = arbiter::Trax::limited("unbounded", 20);
    CHECK(limited.max_tiles() == 20);
    // A whole game between built-in opponents (random ends soon on 8x8).
    arbiter::Trax g("8x8");
    for (uint64_t seed = 0; !g.is_over(); seed++) g.play_action(g.choose("random", seed));
    CHECK(g.to_move() == -1 && g.next_player() >= 0);
    CHECK(g.perft(0) == 1);
}

static void nantong() {
    arbiter::Nantong n(0);  // a seed, never a handle
    CHECK(n.dealer() >= 0 && n.dealer() <= 2);
    int32_t seat = n.actor();
    CHECK(!contains(n.observation(seat), "\"hands\""));
    throws([&] { n.act((seat + 1) % 3, "pass"); }, ARBITER_ILLEGAL_MOVE, "");
    for (uint64_t seed = 1; !n.is_over(); seed++) n.play_action(n.choose("basic", seed));
    CHECK(contains(n.score(), "\"totals\""));
    auto next = n.next_deal();
    CHECK(next.dealer() == (n.dealer() + 1) % 3);
    throws([] { arbiter::Nantong::winning("{}"); }, ARBITER_PARSE_ERROR, "hand");
    // A smaller deal (rules/nantong-small.md), by seed and by deck; its next deal keeps its size.
    arbiter::Nantong small(4, 1, 5);
    CHECK(small.groups() == 1 && small.kinds() == 5 && small.next_deal().kinds() == 5);
    CHECK(contains(small.to_json(), "\"groups\":1"));
    auto pair = arbiter::Nantong::deal(R"(["1m","2m","1m","2m","1m","2m","1m","2m"])", 0, 0);
    CHECK(pair.groups() == 0 && pair.kinds() == 2 && arbiter::Nantong(4).groups() == 7);
    throws([] { arbiter::Nantong(4, 7, 17); }, ARBITER_BAD_ARGUMENT, "at least 18 kinds");
}

static void match() {
    auto m = arbiter::TripleTriadMatch::from_preset("ff8", 12);
    throws([&] { m.trade_choice(); }, ARBITER_ILLEGAL_MOVE, "not over");
    for (uint64_t seed = 0; !m.is_over(); seed++) {
        CHECK(m.to_move() == m.game().to_move());
        CHECK(m.observation(m.to_move()) == m.game().observation(m.to_move()));
        CHECK(m.legal_actions() == m.game().legal_actions());
        m.play_action(m.choose("greedy", seed));
    }
    CHECK(m.to_move() == -1 && contains(m.result(), "\"winner\""));
    ArbiterTradeChoice choice = m.trade_choice();
    std::vector<uint8_t> picks;
    if (choice.kind != ARBITER_TRADE_AUTOMATIC) {
        CHECK(contains(m.brought(1 - choice.chooser), "\"name\""));
        for (uint8_t i = 0; i < choice.count; i++) picks.push_back(i);
    }
    CHECK(m.transfers() == "null");
    m.settle_trade(picks);
    CHECK(m.transfers().front() == '[');
    throws([&] { m.settle_trade(picks); }, ARBITER_ILLEGAL_MOVE, "already settled");
    auto back = arbiter::TripleTriadMatch::from_json(m.to_json());
    CHECK(back.to_json() == m.to_json() && back.clone().round_number() == m.round_number());
}

// The computer within a budget: nodes, time, a flag raised before the call and from another thread
// while a search runs; every search that runs out still plays a legal move, and the solver says
// when it ran out instead of throwing.
static void budgets() {
    using namespace std::chrono_literals;
    arbiter::Trax t("unbounded");
    for (uint64_t seed = 0; seed < 6; seed++) t.play_action(t.choose("easy", seed));
    auto legal = [&](uint32_t action) {
        std::vector<uint32_t> all = t.legal_actions();
        return std::count(all.begin(), all.end(), action) == 1;
    };
    CHECK(legal(t.choose_within("expert", 1, arbiter::Budget{0ms, 50})));
    CHECK(legal(t.choose_within("hard", 1, arbiter::Budget{1ms})));
    throws([&] { t.choose_within("expert", 1, arbiter::Budget{-1ms}); }, ARBITER_BAD_ARGUMENT, "negative");
    throws([&] { t.choose_within("grandmaster", 1, {}); }, ARBITER_BAD_ARGUMENT, "unknown level");

    arbiter::Cancel flag;
    flag.raise();
    CHECK(legal(t.choose_within("expert", 1, arbiter::Budget{0ms, 0, &flag})));
    flag.reset();
    uint32_t thought = UINT32_MAX;
    std::thread thinker([&] { thought = t.choose_within("expert", 1, arbiter::Budget{0ms, 0, &flag}); });
    std::this_thread::sleep_for(10ms);
    flag.raise();
    thinker.join();
    CHECK(legal(thought));
    arbiter::Cancel moved = std::move(flag);
    throws([&] { flag.raise(); }, ARBITER_NULL_POINTER, "NULL");
    moved.reset();

    auto g = arbiter::TripleTriad::from_preset("mush", 4);
    CHECK(!g.solve_within(arbiter::Budget{0ms, 50}).has_value());
    std::optional<arbiter::TripleTriad::Solution> exact = g.solve_within({});
    CHECK(exact.has_value() && exact->value == g.solve().value);
    CHECK(g.choose_within("perfect", 1, arbiter::Budget{0ms, 50}) < 45);
    auto m = arbiter::TripleTriadMatch::from_preset("ff8", 3);
    uint32_t action = m.choose_within("expert", 1, arbiter::Budget{0ms, 50});
    std::vector<uint32_t> ids = m.legal_actions();
    CHECK(std::count(ids.begin(), ids.end(), action) == 1);
    auto n = arbiter::Nantong(3);
    CHECK(n.choose_within("strong", 1, arbiter::Budget{0ms, 50}) < n.num_actions());
}

int main() {
    CHECK(arbiter::version() == ARBITER_VERSION_STRING);
    triple_triad();
    moves_and_adoption();
    trax();
    nantong();
    match();
    budgets();
    std::printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
