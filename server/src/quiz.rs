//! The chat's quiz (`!quizz`): questions on the cards, read from the core's card data, and on
//! the rules, drawn through the core's [`Rng`] so that a seed names its questions; and the check
//! of an answer typed in the chat. A question is data: each client words it.

use arbiter_core::tripletriad::{Element, Side, FF8_CARDS};
use arbiter_core::Rng;
use serde::{Deserialize, Serialize};

/// A question of the quiz.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Question {
    /// The rank of a card on one side (1 to 10, A answering 10).
    Rank { card: String, side: Side },
    /// A card's level (1 to 10).
    Level { card: String },
    /// A card's element (`none` when it has none).
    Element { card: String },
    /// A question on the rules, by its id in [`RULES`]: a number answers it.
    Rule { rule: String },
}

/// The rules' questions, each with its answer as `rules/triple-triad.md` gives it: the sides of a
/// Same capture, the cells of the board, the cards of a hand, the ranks a card gains on a cell of
/// its element, the rank a wall shows under Same Wall.
const RULES: [(&str, u8); 5] = [
    ("same_sides", 2),
    ("board_cells", 9),
    ("hand_cards", 5),
    ("elemental_bonus", 1),
    ("wall_rank", 10),
];

impl Question {
    /// The next question of `rng`: one in five on the rules, the others on a card.
    pub(crate) fn draw(rng: &mut Rng) -> Question {
        let kind = rng.below(5);
        if kind == 0 {
            let rule = RULES[rng.below(RULES.len() as u64) as usize].0;
            return Question::Rule { rule: rule.into() };
        }
        let card = FF8_CARDS[rng.below(FF8_CARDS.len() as u64) as usize].name.to_owned();
        match kind {
            1 | 2 => Question::Rank {
                card,
                side: Side::ALL[rng.below(4) as usize],
            },
            3 => Question::Level { card },
            _ => Question::Element { card },
        }
    }

    /// The right answer, as the chat shows it.
    pub(crate) fn answer(&self) -> String {
        let card = |name: &str| {
            FF8_CARDS
                .iter()
                .find(|c| c.name == name)
                .expect("a question names a card of the data")
        };
        match self {
            Question::Rank { card: c, side } => rank(card(c).ranks[*side as usize]),
            Question::Level { card: c } => card(c).level.to_string(),
            Question::Element { card: c } => card(c).element.name().to_owned(),
            Question::Rule { rule } => rank(RULES.iter().find(|(r, _)| r == rule).expect("a rule of RULES").1),
        }
    }

    /// Whether `typed` is the right answer: case and surrounding spaces aside, a ten written A or
    /// 10, an element by its name.
    pub(crate) fn right(&self, typed: &str) -> bool {
        let typed = typed.trim();
        let answer = self.answer();
        match self {
            Question::Element { .. } => typed.parse::<Element>().is_ok_and(|e| e.name() == answer),
            _ => typed.eq_ignore_ascii_case(&answer) || (answer == "A" && typed == "10"),
        }
    }
}

/// A rank as cards print it: 1 to 9, or A for ten.
fn rank(r: u8) -> String {
    if r == 10 {
        "A".into()
    } else {
        r.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_names_its_questions_and_their_answers() {
        let draw = |seed| {
            let mut rng = Rng::new(seed);
            (0..50).map(|_| Question::draw(&mut rng)).collect::<Vec<_>>()
        };
        let questions = draw(7);
        assert_eq!(questions, draw(7));
        assert_ne!(questions, draw(8));
        for kind in ["rank", "level", "element", "rule"] {
            assert!(
                questions
                    .iter()
                    .any(|q| serde_json::to_value(q).unwrap()["kind"] == kind),
                "no {kind} question in 50"
            );
        }
        let ifrit = |side| Question::Rank {
            card: "Ifrit".into(),
            side,
        };
        // Ifrit is [9 6 2 8] in the data.
        assert!(ifrit(Side::Top).right(" 9 "));
        assert!(!ifrit(Side::Top).right("8"));
        let level = Question::Level { card: "Ifrit".into() };
        assert_eq!(level.answer(), "8");
        let element = Question::Element { card: "Ifrit".into() };
        assert!(element.right("FIRE"));
        assert!(!element.right("ice"));
        assert!(Question::Element { card: "Geezard".into() }.right("none"));
        let wall = Question::Rule {
            rule: "wall_rank".into(),
        };
        assert!(wall.right("a") && wall.right("10") && !wall.right("9"));
        for q in questions {
            assert!(q.right(&q.answer()), "{q:?}");
        }
    }
}
