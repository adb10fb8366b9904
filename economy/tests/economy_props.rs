//! Invariants of the card economy's rules: shop purchases against a collection, custom cards,
//! suggestions, the MUSH rule words, rewards.

use std::collections::HashMap;

use arbiter_core::tripletriad::*;
use arbiter_core::Rng;
use arbiter_economy::*;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Buy {
    Random(char, u8),
    Card(String),
}

fn buy() -> impl Strategy<Value = Buy> {
    prop_oneof![
        (prop::sample::select(vec!['A', 'Z', 'C', 'Q']), 0u8..=11).prop_map(|(s, l)| Buy::Random(s, l)),
        prop::sample::select(vec![
            "Geezard",
            "A110",
            "Omega Weapon",
            "Z001",
            "Ultros",
            "a050",
            "nobody"
        ])
        .prop_map(|n| Buy::Card(n.into())),
    ]
}

proptest! {
    /// Whatever is bought, a buyer never owns more copies than the series allows, never pays more
    /// than they hold, and pays exactly the price per level times the level.
    #[test]
    fn purchases_respect_limits_and_points(buys in prop::collection::vec(buy(), 1..60), seed in any::<u64>(), start in 0u32..3000) {
        let mut shop = Catalog::standard();
        let ultros = shop.design_custom("Ultros", 5, [3, 5, 6, 4], Element::Water, "", 10_000).unwrap();
        shop.add(ultros.card).unwrap();
        let mut owned: HashMap<String, u32> = HashMap::new();
        let mut points = start;
        let mut rng = Rng::new(seed);
        for b in buys {
            let sale = match &b {
                Buy::Random(s, l) => shop.buy_random(*s, *l, points, |c| owned.get(&c.id).copied().unwrap_or(0), &mut rng),
                Buy::Card(n) => {
                    let have = shop.find(n).map_or(0, |c| owned.get(&c.id).copied().unwrap_or(0));
                    shop.buy_card(n, points, have)
                }
            };
            if let Ok(sale) = sale {
                let series = shop.series_of(sale.card.series()).unwrap();
                let per_level = match b { Buy::Random(..) => series.random_price, Buy::Card(_) => series.card_price };
                prop_assert_eq!(Some(sale.price), per_level.map(|p| p * sale.card.card.level as u32));
                prop_assert!(sale.price <= points);
                points -= sale.price;
                let n = owned.entry(sale.card.id.clone()).or_default();
                *n += 1;
                prop_assert!(*n <= shop.copies_allowed(&sale.card));
            }
        }
    }

    /// A custom card is accepted exactly when its rank sum is in its level's range and its name
    /// is free; it then costs half the custom series' price.
    #[test]
    fn custom_cards_exactly_in_range(ranks in prop::array::uniform4(1u8..=10), level in 1u8..=10, points in 0u32..1000) {
        let shop = Catalog::standard();
        let sum: u32 = ranks.iter().map(|&r| r as u32).sum();
        let in_range = rank_sum_range(level).unwrap().contains(&sum);
        let price = 50 * level as u32;
        match shop.design_custom("Orthros", level, ranks, Element::Holy, "", points) {
            Ok(sale) => {
                prop_assert!(in_range && price <= points);
                prop_assert_eq!(sale.price, price);
                prop_assert_eq!(sale.card.id.as_str(), "C001");
            }
            Err(ShopError::Card(_)) => prop_assert!(!in_range),
            Err(ShopError::NotEnoughPoints { .. }) => prop_assert!(in_range && price > points),
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
    }

    #[test]
    fn suggestions_are_valid_custom_cards(level in 1u8..=10, seed in any::<u64>()) {
        for ranks in suggest_ranks(level, &mut Rng::new(seed)).unwrap() {
            prop_assert!(validate_custom_card(&Card::new("s", ranks).with_level(level)).is_ok());
        }
    }

    /// Any set of rule words in any order and case reads to the same rules as its canonical
    /// writing, which reads back to itself.
    #[test]
    fn rule_words_round_trip(mask in 0u16..(1 << 7), trade in 0usize..5, option in 0usize..3, order in any::<u64>(), upper in any::<bool>()) {
        let gameplay = ["Open", "Same", "Wall", "Plus", "Combo", "Elemental", "Limitless"];
        let mut words: Vec<&str> = gameplay.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, w)| *w).collect();
        if trade < 4 { words.push(["None", "One", "All", "Diff"][trade]); }
        if option > 0 { words.push(["", "Broadcast", "Private"][option]); }
        Rng::new(order).shuffle(&mut words);
        let text = words.join(" ");
        let text = if upper { text.to_uppercase() } else { text.to_lowercase() };
        let wall_alone = mask & 0b110 == 0b100;
        let empty = mask == 0 && trade == 4;
        match text.parse::<MushRules>() {
            Ok(r) => {
                prop_assert!(!wall_alone && !empty);
                prop_assert!(r.config.validate().is_ok());
                prop_assert_eq!(r.config.trade == TradeRule::One, trade == 1 || trade == 4);
                prop_assert_eq!(r.config.deck_level_limit.is_none(), mask & (1 << 6) != 0);
                prop_assert_eq!(&r.to_string().parse::<MushRules>().unwrap(), &r);
            }
            Err(MushRulesError::WallWithoutSame) => prop_assert!(wall_alone),
            Err(MushRulesError::Empty) => prop_assert!(empty),
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
    }

    /// A win earns at least what a draw or a loss does, under every rule.
    #[test]
    fn winning_pays_most(trade in prop::sample::select(TradeRule::ALL.to_vec())) {
        let won = reward(trade, Standing::Won);
        for s in [Standing::Lost, Standing::Drawn, Standing::Forfeited] {
            let r = reward(trade, s);
            prop_assert!(won.points >= r.points && won.experience >= r.experience && won.gils >= r.gils);
        }
    }
}
