// libarbiter for C++17: the C API of <arbiter.h> with owning handles, std::string results and
// exceptions. Header-only; link libarbiter as for C.
//
// - Each class owns one handle and frees it when destroyed. Classes are move-only (a moved-from
//   object holds no handle: calling it throws Error with ARBITER_NULL_POINTER); `clone()` copies.
//   `get()` gives the C handle, still owned by the object, for calls this header does not wrap.
// - A failed call throws arbiter::Error: `status()` is the ArbiterStatus, `what()` the message of
//   arbiter_last_error(). As in C, a failed call changes nothing.
// - JSON results (observations, saves, captures) are std::string, as the C functions write them:
//   parse them with the JSON library of your choice. Players are indices, as in C.
// - Thread safety is the C library's: one object must not be used by two threads at once.
#ifndef ARBITER_HPP
#define ARBITER_HPP

#include <arbiter.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace arbiter {

// A failed call: its status and the library's message.
class Error : public std::runtime_error {
public:
    Error(ArbiterStatus status, const std::string &message) : std::runtime_error(message), status_(status) {}
    ArbiterStatus status() const noexcept { return status_; }

private:
    ArbiterStatus status_;
};

// The library's version (the header's is ARBITER_VERSION_STRING).
inline std::string version() { return arbiter_version(); }

// Selects the constructor that takes ownership of a C handle: `arbiter::Trax t(arbiter::adopt, raw)`.
struct adopt_t {
    explicit adopt_t() = default;
};
inline constexpr adopt_t adopt{};

namespace detail {

inline void check(ArbiterStatus status) {
    if (status != ARBITER_OK) throw Error(status, arbiter_last_error());
}

// A value written through the last argument of `f`.
template <class T, class F, class... Args>
T value(F f, Args... args) {
    T out{};
    check(f(args..., &out));
    return out;
}

// A buffer result (`buf`, `cap`, `size` as the last arguments of `f`): a first try in a small
// buffer, then one of the size the library reports. Text sizes count the NUL, which is dropped.
template <class T, class F, class... Args>
std::vector<T> items(F f, Args... args) {
    std::vector<T> out(64);
    size_t size = 0;
    ArbiterStatus status = f(args..., out.data(), out.size(), &size);
    if (status == ARBITER_BUFFER_TOO_SMALL) {
        out.resize(size);
        status = f(args..., out.data(), out.size(), &size);
    }
    check(status);
    out.resize(size);
    return out;
}

template <class F, class... Args>
std::string text(F f, Args... args) {
    std::string out(256, '\0');
    size_t size = 0;
    ArbiterStatus status = f(args..., out.data(), out.size(), &size);
    if (status == ARBITER_BUFFER_TOO_SMALL) {
        out.resize(size);
        status = f(args..., out.data(), out.size(), &size);
    }
    check(status);
    out.resize(size - 1);
    return out;
}

// Sole owner of one C handle.
template <class Raw, void (*Free)(Raw *)>
class Owner {
public:
    Owner(adopt_t, Raw *raw) noexcept : raw_(raw) {}
    Owner(Owner &&other) noexcept : raw_(std::exchange(other.raw_, nullptr)) {}
    Owner &operator=(Owner &&other) noexcept {
        if (this != &other) {
            Free(raw_);
            raw_ = std::exchange(other.raw_, nullptr);
        }
        return *this;
    }
    Owner(const Owner &) = delete;
    Owner &operator=(const Owner &) = delete;
    ~Owner() { Free(raw_); }

    Raw *get() const noexcept { return raw_; }

protected:
    Raw *raw_;
};

// A new handle made by `f` (its `out` argument last).
template <class Raw, class F, class... Args>
Raw *make(F f, Args... args) {
    Raw *raw = nullptr;
    check(f(args..., &raw));
    return raw;
}

}  // namespace detail

// A flag that calls off the choices and solves given it in their Budget, from any thread: one
// thread may raise it while another's choice runs. It must outlive the calls that use it.
class Cancel : public detail::Owner<ArbiterCancel, arbiter_cancel_free> {
public:
    using Owner::Owner;
    // A new flag, lowered.
    Cancel() : Owner(adopt, detail::make<ArbiterCancel>(arbiter_cancel_new)) {}
    // Every search given the flag stops at its next look (within a few milliseconds) and plays
    // its best move so far.
    void raise() const { detail::check(arbiter_cancel_raise(raw_)); }
    // Lowers it again, for the next choice.
    void reset() const { detail::check(arbiter_cancel_reset(raw_)); }
};

// What one choice or solve may spend besides its level's own budget (ArbiterBudget). Left as it
// is constructed it limits nothing. With a time limit or a flag the move may depend on the
// machine's speed.
struct Budget {
    // From the call's start; zero for no time limit.
    std::chrono::milliseconds time{0};
    // Trax: turns played; Triple Triad: positions searched; zero for the level's own budget.
    uint64_t nodes = 0;
    // A flag whose raising stops the search, or none.
    const Cancel *cancel = nullptr;
};

namespace detail {

// The C form of `b`. A negative time is refused as C refuses a bad argument.
inline ArbiterBudget budget(const Budget &b) {
    if (b.time.count() < 0) throw Error(ARBITER_BAD_ARGUMENT, "budget: a negative time limit");
    return ArbiterBudget{static_cast<uint64_t>(b.time.count()), b.nodes, b.cancel ? b.cancel->get() : nullptr};
}

// The C functions of one game, by verb: the verbs every game shares are written once, in Game.
template <class Raw>
struct Api;

template <>
struct Api<ArbiterTripleTriad> {
    static constexpr auto destroy = arbiter_triple_triad_free;
    static constexpr auto clone = arbiter_triple_triad_clone;
    static constexpr auto from_json = arbiter_triple_triad_from_json;
    static constexpr auto to_json = arbiter_triple_triad_to_json;
    static constexpr auto legal_actions = arbiter_triple_triad_legal_actions;
    static constexpr auto legal_moves = arbiter_triple_triad_legal_moves;
    static constexpr auto legal_action_mask = arbiter_triple_triad_legal_action_mask;
    static constexpr auto observation_tensor = arbiter_triple_triad_observation_tensor;
    static constexpr auto play = arbiter_triple_triad_play;
    static constexpr auto play_action = arbiter_triple_triad_play_action;
    static constexpr auto to_move = arbiter_triple_triad_to_move;
    static constexpr auto is_over = arbiter_triple_triad_is_over;
    static constexpr auto outcome = arbiter_triple_triad_outcome;
    static constexpr auto observation = arbiter_triple_triad_observation;
    static constexpr auto perft = arbiter_triple_triad_perft;
    static constexpr auto choose = arbiter_triple_triad_choose;
    static constexpr auto choose_within = arbiter_triple_triad_choose_within;
    static constexpr auto levels = arbiter_triple_triad_levels;
    static constexpr auto action_text = arbiter_triple_triad_action_text;
    static constexpr auto action_id = arbiter_triple_triad_action_id;
    static constexpr auto num_actions = arbiter_triple_triad_num_actions;
};

template <>
struct Api<ArbiterTrax> {
    static constexpr auto destroy = arbiter_trax_free;
    static constexpr auto clone = arbiter_trax_clone;
    static constexpr auto from_json = arbiter_trax_from_json;
    static constexpr auto to_json = arbiter_trax_to_json;
    static constexpr auto legal_actions = arbiter_trax_legal_actions;
    static constexpr auto legal_moves = arbiter_trax_legal_moves;
    static constexpr auto legal_action_mask = arbiter_trax_legal_action_mask;
    static constexpr auto observation_tensor = arbiter_trax_observation_tensor;
    static constexpr auto play = arbiter_trax_play;
    static constexpr auto play_action = arbiter_trax_play_action;
    static constexpr auto to_move = arbiter_trax_to_move;
    static constexpr auto is_over = arbiter_trax_is_over;
    static constexpr auto outcome = arbiter_trax_outcome;
    static constexpr auto observation = arbiter_trax_observation;
    static constexpr auto perft = arbiter_trax_perft;
    static constexpr auto choose = arbiter_trax_choose;
    static constexpr auto choose_within = arbiter_trax_choose_within;
    static constexpr auto levels = arbiter_trax_levels;
    static constexpr auto action_text = arbiter_trax_action_text;
    static constexpr auto action_id = arbiter_trax_action_id;
    static constexpr auto num_actions = arbiter_trax_num_actions;
};

template <>
struct Api<ArbiterNantong> {
    static constexpr auto destroy = arbiter_nantong_free;
    static constexpr auto clone = arbiter_nantong_clone;
    static constexpr auto from_json = arbiter_nantong_from_json;
    static constexpr auto to_json = arbiter_nantong_to_json;
    static constexpr auto legal_actions = arbiter_nantong_legal_actions;
    static constexpr auto legal_moves = arbiter_nantong_legal_moves;
    static constexpr auto legal_action_mask = arbiter_nantong_legal_action_mask;
    static constexpr auto observation_tensor = arbiter_nantong_observation_tensor;
    static constexpr auto play = arbiter_nantong_play;
    static constexpr auto play_action = arbiter_nantong_play_action;
    static constexpr auto to_move = arbiter_nantong_to_move;
    static constexpr auto is_over = arbiter_nantong_is_over;
    static constexpr auto outcome = arbiter_nantong_outcome;
    static constexpr auto observation = arbiter_nantong_observation;
    static constexpr auto perft = arbiter_nantong_perft;
    static constexpr auto choose = arbiter_nantong_choose;
    static constexpr auto choose_within = arbiter_nantong_choose_within;
    static constexpr auto levels = arbiter_nantong_levels;
    static constexpr auto action_text = arbiter_nantong_action_text;
    static constexpr auto action_id = arbiter_nantong_action_id;
    static constexpr auto num_actions = arbiter_nantong_num_actions;
};

// The verbs every game shares (API.md), over the game's C functions. `Self` is the game class,
// which `clone` and `from_json` return.
template <class Self, class Raw>
class Game : public Owner<Raw, Api<Raw>::destroy> {
    using A = Api<Raw>;

public:
    using Owner<Raw, A::destroy>::Owner;

    // A save (JSON) read back.
    static Self from_json(std::string_view json) { return Self(adopt, make<Raw>(A::from_json, json.data(), json.size())); }
    std::string to_json() const { return text(A::to_json, this->raw_); }
    Self clone() const { return Self(adopt, make<Raw>(A::clone, this->raw_)); }

    // Legal moves: action ids, notation (a JSON array of strings), a mask over every id.
    std::vector<uint32_t> legal_actions() const { return items<uint32_t>(A::legal_actions, this->raw_); }
    std::string legal_moves() const { return text(A::legal_moves, this->raw_); }
    std::vector<uint8_t> legal_action_mask() const { return items<uint8_t>(A::legal_action_mask, this->raw_); }
    size_t num_actions() const { return value<size_t>(A::num_actions, this->raw_); }
    std::string action_text(uint32_t id) const { return text(A::action_text, this->raw_, id); }
    uint32_t action_id(std::string_view move) const {
        return value<uint32_t>(A::action_id, this->raw_, move.data(), move.size());
    }

    void play(std::string_view move) { check(A::play(this->raw_, move.data(), move.size())); }
    void play_action(uint32_t id) { check(A::play_action(this->raw_, id)); }

    // -1 once over. The outcome: the winner's index, -2 a draw, -1 while the game goes on.
    int32_t to_move() const { return value<int32_t>(A::to_move, this->raw_); }
    bool is_over() const { return value<bool>(A::is_over, this->raw_); }
    int32_t outcome() const { return value<int32_t>(A::outcome, this->raw_); }

    // What `player` may see: JSON (the header documents its keys) or numbers for learning agents.
    std::string observation(int32_t player) const { return text(A::observation, this->raw_, player); }
    std::vector<float> observation_tensor(int32_t player) const {
        return items<float>(A::observation_tensor, this->raw_, player);
    }

    // A built-in opponent's move (an action id); the same seed gives the same move.
    uint32_t choose(std::string_view level, uint64_t seed) const {
        return value<uint32_t>(A::choose, this->raw_, level.data(), level.size(), seed);
    }
    // The same within `budget` as well: a search that runs out plays the best move it found so
    // far, never none while one is legal.
    uint32_t choose_within(std::string_view level, uint64_t seed, const Budget &budget) const {
        ArbiterBudget b = detail::budget(budget);
        return value<uint32_t>(A::choose_within, this->raw_, level.data(), level.size(), seed, &b);
    }
    static std::string levels() { return text(A::levels); }
    uint64_t perft(uint32_t depth) const { return value<uint64_t>(A::perft, this->raw_, depth); }
};

}  // namespace detail

// A Triple Triad round. Players: 0 blue, 1 red.
class TripleTriad : public detail::Game<TripleTriad, ArbiterTripleTriad> {
public:
    using Game::Game;

    // The first round of a match under a preset (ff8, ttonline, mush, ffforever), hands from `seed`.
    static TripleTriad from_preset(std::string_view name, uint64_t seed) {
        return TripleTriad(adopt, detail::make<ArbiterTripleTriad>(arbiter_triple_triad_from_preset, name.data(), name.size(), seed));
    }

    // What the last move captured (JSON), or "null".
    std::string last_captures() const { return detail::text(arbiter_triple_triad_last_captures, raw_); }
    uint32_t score(int32_t player) const { return detail::value<uint32_t>(arbiter_triple_triad_score, raw_, player); }
    // Who moves next, also once the board is full (who would have moved).
    int32_t next_player() const { return detail::value<int32_t>(arbiter_triple_triad_next_player, raw_); }

    // The exact value for the player to move (their final score minus the opponent's) and a best move.
    struct Solution {
        int32_t value;
        uint32_t action;
    };
    Solution solve() const {
        Solution s{};
        detail::check(arbiter_triple_triad_solve(raw_, &s.value, &s.action));
        return s;
    }
    // The same within `budget` (its nodes are positions searched): none if it ran out before
    // the value was exact (`choose_within` at `perfect` plays the best move found then).
    std::optional<Solution> solve_within(const Budget &budget) const {
        ArbiterBudget b = detail::budget(budget);
        Solution s{};
        ArbiterStatus status = arbiter_triple_triad_solve_within(raw_, &b, &s.value, &s.action);
        if (status == ARBITER_LIMIT_EXCEEDED) return std::nullopt;
        detail::check(status);
        return s;
    }
};

// A Triple Triad match: rounds (sudden death replays draws), then the trade.
class TripleTriadMatch : public detail::Owner<ArbiterTripleTriadMatch, arbiter_triple_triad_match_free> {
public:
    using Owner::Owner;

    static TripleTriadMatch from_json(std::string_view json) {
        return TripleTriadMatch(adopt, detail::make<ArbiterTripleTriadMatch>(arbiter_triple_triad_match_from_json, json.data(), json.size()));
    }
    static TripleTriadMatch from_preset(std::string_view name, uint64_t seed) {
        return TripleTriadMatch(adopt, detail::make<ArbiterTripleTriadMatch>(arbiter_triple_triad_match_from_preset,
                                                                      name.data(), name.size(), seed));
    }
    std::string to_json() const { return detail::text(arbiter_triple_triad_match_to_json, raw_); }
    TripleTriadMatch clone() const {
        return TripleTriadMatch(adopt, detail::make<ArbiterTripleTriadMatch>(arbiter_triple_triad_match_clone, raw_));
    }

    // The round in play, as a copy (for what the match does not answer itself).
    TripleTriad game() const { return TripleTriad(adopt, detail::make<ArbiterTripleTriad>(arbiter_triple_triad_match_game, raw_)); }

    // A turn of the round in play, without copying it.
    int32_t to_move() const { return detail::value<int32_t>(arbiter_triple_triad_match_to_move, raw_); }
    std::vector<uint32_t> legal_actions() const {
        return detail::items<uint32_t>(arbiter_triple_triad_match_legal_actions, raw_);
    }
    std::string observation(int32_t player) const {
        return detail::text(arbiter_triple_triad_match_observation, raw_, player);
    }
    uint32_t choose(std::string_view level, uint64_t seed) const {
        return detail::value<uint32_t>(arbiter_triple_triad_match_choose, raw_, level.data(), level.size(), seed);
    }
    uint32_t choose_within(std::string_view level, uint64_t seed, const Budget &budget) const {
        ArbiterBudget b = detail::budget(budget);
        return detail::value<uint32_t>(arbiter_triple_triad_match_choose_within, raw_, level.data(), level.size(), seed, &b);
    }
    void play(std::string_view move) { detail::check(arbiter_triple_triad_match_play(raw_, move.data(), move.size())); }
    void play_action(uint32_t id) { detail::check(arbiter_triple_triad_match_play_action(raw_, id)); }
    uint32_t timeout_move() const { return detail::value<uint32_t>(arbiter_triple_triad_match_timeout_move, raw_); }

    bool is_over() const { return detail::value<bool>(arbiter_triple_triad_match_is_over, raw_); }
    uint32_t round_number() const { return detail::value<uint32_t>(arbiter_triple_triad_match_round_number, raw_); }
    std::string rounds() const { return detail::text(arbiter_triple_triad_match_rounds, raw_); }
    std::string result() const { return detail::text(arbiter_triple_triad_match_result, raw_); }

    // The trade: what the winner chooses, the cards a player brought (JSON), the picks, the result.
    ArbiterTradeChoice trade_choice() const {
        return detail::value<ArbiterTradeChoice>(arbiter_triple_triad_match_trade_choice, raw_);
    }
    std::string brought(int32_t player) const { return detail::text(arbiter_triple_triad_match_brought, raw_, player); }
    void settle_trade(const std::vector<uint8_t> &picks) {
        detail::check(arbiter_triple_triad_match_settle_trade(raw_, picks.data(), picks.size()));
    }
    std::string transfers() const { return detail::text(arbiter_triple_triad_match_transfers, raw_); }
};

// A Trax game: 8x8, unbounded or loop. Players: 0 white, 1 red.
class Trax : public detail::Game<Trax, ArbiterTrax> {
public:
    using Game::Game;

    explicit Trax(std::string_view variant) : Game(adopt, detail::make<ArbiterTrax>(arbiter_trax_new, variant.data(), variant.size())) {}
    static Trax limited(std::string_view variant, uint32_t max_tiles) {
        return Trax(adopt, detail::make<ArbiterTrax>(arbiter_trax_new_limited, variant.data(), variant.size(), max_tiles));
    }
    // A game record replayed (official notation, optionally numbered, `#` comments).
    static Trax from_record(std::string_view variant, std::string_view record) {
        return Trax(adopt, detail::make<ArbiterTrax>(arbiter_trax_from_record, variant.data(), variant.size(), record.data(),
                                              record.size()));
    }

    int32_t next_player() const { return detail::value<int32_t>(arbiter_trax_next_player, raw_); }
    uint32_t tiles() const { return detail::value<uint32_t>(arbiter_trax_tiles, raw_); }
    uint32_t max_tiles() const { return detail::value<uint32_t>(arbiter_trax_max_tiles, raw_); }
    std::string variant() const { return detail::text(arbiter_trax_variant, raw_); }
    // Columns and rows of the area the tiles cover.
    std::pair<uint32_t, uint32_t> size() const {
        std::pair<uint32_t, uint32_t> s;
        detail::check(arbiter_trax_size(raw_, &s.first, &s.second));
        return s;
    }
    // The red edges of the tile at notation coordinates (col 1 = column A, row 1 = the top row):
    // bit 0 north, 1 east, 2 south, 3 west; 0 for an empty cell.
    uint8_t tile_at(uint32_t col, uint32_t row) const { return detail::value<uint8_t>(arbiter_trax_tile_at, raw_, col, row); }
    std::string last_turn() const { return detail::text(arbiter_trax_last_turn, raw_); }
    std::string win() const { return detail::text(arbiter_trax_win, raw_); }
    void undo() { detail::check(arbiter_trax_undo(raw_)); }
};

// A Nantong long cards deal: three seats (0, 1, 2), hidden hands.
class Nantong : public detail::Game<Nantong, ArbiterNantong> {
public:
    using Game::Game;

    // A deal whose deck order and dealer are drawn from `seed`.
    explicit Nantong(uint64_t seed) : Game(adopt, detail::make<ArbiterNantong>(arbiter_nantong_new, seed)) {}
    // A smaller deal (rules/nantong-small.md): `groups` groups and a pair, the first `kinds` kinds.
    Nantong(uint64_t seed, uint32_t groups, uint32_t kinds)
        : Game(adopt, detail::make<ArbiterNantong>(arbiter_nantong_new_sized, seed, groups, kinds)) {}
    // The deal of an explicit deck (a JSON array of 120 card codes) and dealer.
    static Nantong deal(std::string_view deck, int32_t dealer) {
        return Nantong(adopt, detail::make<ArbiterNantong>(arbiter_nantong_deal, deck.data(), deck.size(), dealer));
    }
    // A smaller deal of an explicit deck: its length gives the kinds.
    static Nantong deal(std::string_view deck, int32_t dealer, uint32_t groups) {
        return Nantong(adopt,
                       detail::make<ArbiterNantong>(arbiter_nantong_deal_sized, deck.data(), deck.size(), dealer, groups));
    }
    uint32_t groups() const { return detail::value<uint32_t>(arbiter_nantong_groups, raw_); }
    uint32_t kinds() const { return detail::value<uint32_t>(arbiter_nantong_kinds, raw_); }
    Nantong next_deal() const { return Nantong(adopt, detail::make<ArbiterNantong>(arbiter_nantong_next_deal, raw_)); }

    // An action as text for `seat`.
    void act(int32_t seat, std::string_view action) { detail::check(arbiter_nantong_act(raw_, seat, action.data(), action.size())); }
    int32_t actor() const { return detail::value<int32_t>(arbiter_nantong_actor, raw_); }
    int32_t dealer() const { return detail::value<int32_t>(arbiter_nantong_dealer, raw_); }
    std::string win() const { return detail::text(arbiter_nantong_win, raw_); }
    std::string score() const { return detail::text(arbiter_nantong_score, raw_); }

    // Checks and scores of hands given as JSON, outside any deal.
    static std::string winning(std::string_view json) { return detail::text(arbiter_nantong_winning, json.data(), json.size()); }
    static std::string score_hand(std::string_view json) {
        return detail::text(arbiter_nantong_score_hand, json.data(), json.size());
    }
};

}  // namespace arbiter

#endif  // ARBITER_HPP
