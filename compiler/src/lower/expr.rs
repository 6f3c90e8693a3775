//! Residual guards: boolean formulas over "dimension `d` takes a value in
//! set `S`" atoms, the form in which `diagram` partially evaluates the
//! pipeline.
//!
//! Every `hir::Guard` atom depends on one or two dimensions of the domain
//! (`confidence < threshold` reads the mode and the confidence), so after
//! [`translate`] a guard is an [`Expr`] whose atoms are [`Expr::In`] tests.
//! Fixing one dimension to one value ([`Expr::restrict`]) turns the atoms on
//! that dimension into constants and simplifies; negation complements the
//! set instead of wrapping (every dimension is total), so formulas stay
//! small and structurally comparable. `Expr` is `Eq + Hash`, which is what
//! lets `diagram` memoise on the residual pipeline.

/// A set of dimension values, as a bitset of fixed length per dimension.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Set {
    words: Vec<u64>,
    len: usize,
}

impl Set {
    /// The values `v < len` for which `pred(v)` holds.
    pub(crate) fn from_fn(len: usize, mut pred: impl FnMut(usize) -> bool) -> Set {
        let mut words = vec![0u64; len.div_ceil(64)];
        for (w, word) in words.iter_mut().enumerate() {
            for b in 0..64 {
                let v = w * 64 + b;
                if v < len && pred(v) {
                    *word |= 1 << b;
                }
            }
        }
        Set { words, len }
    }

    /// Whether `v` is in the set.
    pub(crate) fn contains(&self, v: usize) -> bool {
        self.words
            .get(v / 64)
            .is_some_and(|w| w & (1 << (v % 64)) != 0)
    }

    fn is_empty(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }

    fn is_full(&self) -> bool {
        (0..self.len).all(|v| self.contains(v))
    }

    fn complement(&self) -> Set {
        Set::from_fn(self.len, |v| !self.contains(v))
    }
}

/// A guard over the dimensions of the domain.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Expr {
    /// A constant.
    Const(bool),
    /// The value of dimension `.0` is in `.1`.
    In(usize, Set),
    /// Every operand holds (at least two, none constant).
    And(Vec<Expr>),
    /// Some operand holds (at least two, none constant).
    Or(Vec<Expr>),
}

impl Expr {
    /// An atom, simplified to a constant when the set is empty or full.
    pub(crate) fn atom(dim: usize, set: Set) -> Expr {
        if set.is_empty() {
            Expr::Const(false)
        } else if set.is_full() {
            Expr::Const(true)
        } else {
            Expr::In(dim, set)
        }
    }

    /// The conjunction, flattened and simplified.
    pub(crate) fn and(items: Vec<Expr>) -> Expr {
        let mut out = Vec::with_capacity(items.len());
        for e in items {
            match e {
                Expr::Const(true) => {}
                Expr::Const(false) => return Expr::Const(false),
                Expr::And(inner) => out.extend(inner),
                e => out.push(e),
            }
        }
        match out.len() {
            0 => Expr::Const(true),
            1 => out.pop().unwrap_or(Expr::Const(true)),
            _ => Expr::And(out),
        }
    }

    /// The disjunction, flattened and simplified.
    pub(crate) fn or(items: Vec<Expr>) -> Expr {
        let mut out = Vec::with_capacity(items.len());
        for e in items {
            match e {
                Expr::Const(false) => {}
                Expr::Const(true) => return Expr::Const(true),
                Expr::Or(inner) => out.extend(inner),
                e => out.push(e),
            }
        }
        match out.len() {
            0 => Expr::Const(false),
            1 => out.pop().unwrap_or(Expr::Const(false)),
            _ => Expr::Or(out),
        }
    }

    /// The negation, pushed down to the atoms (De Morgan; sets complemented).
    pub(crate) fn not(self) -> Expr {
        match self {
            Expr::Const(b) => Expr::Const(!b),
            Expr::In(d, s) => Expr::atom(d, s.complement()),
            Expr::And(v) => Expr::or(v.into_iter().map(Expr::not).collect()),
            Expr::Or(v) => Expr::and(v.into_iter().map(Expr::not).collect()),
        }
    }

    /// The formula with dimension `dim` fixed to `value`.
    pub(crate) fn restrict(&self, dim: usize, value: usize) -> Expr {
        match self {
            Expr::Const(b) => Expr::Const(*b),
            Expr::In(d, s) if *d == dim => Expr::Const(s.contains(value)),
            Expr::In(..) => self.clone(),
            Expr::And(v) => Expr::and(v.iter().map(|e| e.restrict(dim, value)).collect()),
            Expr::Or(v) => Expr::or(v.iter().map(|e| e.restrict(dim, value)).collect()),
        }
    }

    /// The smallest dimension the formula reads, if any.
    pub(crate) fn min_dim(&self) -> Option<usize> {
        match self {
            Expr::Const(_) => None,
            Expr::In(d, _) => Some(*d),
            Expr::And(v) | Expr::Or(v) => v.iter().filter_map(Expr::min_dim).min(),
        }
    }
}
