//! Unit tests of verification helpers: counterexample confidences and the
//! disclosure order.

use super::monotone::rank;
use super::point::confidence_in;
use stpc_runtime::Action;

#[test]
fn counterexample_confidences_fall_in_their_interval() {
    let cuts = [0.3, 0.7];
    assert_eq!(confidence_in(&cuts, 0), 0.15);
    assert_eq!(confidence_in(&cuts, 1), 0.5);
    assert_eq!(confidence_in(&cuts, 2), 0.85);
    assert_eq!(confidence_in(&[], 0), 1.0);
}

#[test]
fn disclosure_order_is_the_documented_one() {
    assert!(rank(Action::Allow) > rank(Action::Rewrite));
    assert!(rank(Action::Rewrite) > rank(Action::Shadow));
    assert_eq!(rank(Action::Shadow), rank(Action::Defer));
    assert!(rank(Action::Defer) > rank(Action::Block));
}
