//! Unit tests of the lowering passes that integration tests reach only
//! indirectly: formula simplification, confidence cuts, label comparisons.

use super::domain::next_up;
use super::expr::{Expr, Set};

#[test]
fn next_up_is_the_next_float() {
    assert!(next_up(0.7) > 0.7);
    assert_eq!(f64::from_bits(0.7f64.to_bits() + 1), next_up(0.7));
    assert!(next_up(0.0) > 0.0);
    assert_eq!(next_up(f64::INFINITY), f64::INFINITY);
}

#[test]
fn atoms_simplify_to_constants() {
    assert_eq!(
        Expr::atom(0, Set::from_fn(3, |_| false)),
        Expr::Const(false)
    );
    assert_eq!(Expr::atom(0, Set::from_fn(3, |_| true)), Expr::Const(true));
    let a = Expr::atom(0, Set::from_fn(3, |v| v == 1));
    assert_eq!(a.clone().not().not(), a);
    // Negation complements the set rather than wrapping.
    assert_eq!(a.clone().not(), Expr::atom(0, Set::from_fn(3, |v| v != 1)));
}

#[test]
fn restriction_decides_atoms_on_the_fixed_dimension() {
    let a = Expr::atom(0, Set::from_fn(3, |v| v == 1));
    let b = Expr::atom(2, Set::from_fn(2, |v| v == 0));
    let e = Expr::and(vec![a.clone(), b.clone()]);
    assert_eq!(e.min_dim(), Some(0));
    assert_eq!(e.restrict(0, 1), b);
    assert_eq!(e.restrict(0, 2), Expr::Const(false));
    let o = Expr::or(vec![a, b]);
    assert_eq!(o.restrict(0, 1), Expr::Const(true));
    assert_eq!(o.restrict(1, 0).min_dim(), Some(0));
}

#[test]
fn large_sets_use_several_words() {
    let s = Set::from_fn(1001, |v| v % 100 == 0);
    assert!(s.contains(0) && s.contains(1000) && !s.contains(999) && !s.contains(5000));
}
