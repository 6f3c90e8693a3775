//! The adversaries' side of an evaluation: the observer views a replay
//! keeps (`Views`, on disk), the ground truth they are scored against
//! (`Scorer`), the models trained on the baseline's views (`Model`), and
//! the channel ablation.

use std::collections::{BTreeSet, HashMap};

use rayon::prelude::*;

use super::{ChannelRow, EvalError, EvalOptions};
use crate::adversary::{prototypes, Adversary, ChannelMask, DocFreq, Keyword, NaiveBayes, Tfidf};
use crate::docs::{Docs, Vocab};
use crate::frontier::{for_each_task, Tasks};
use crate::stats::{bootstrap_mean, Outcomes};
use crate::trace::Observer;

/// The observer views a [`pass`](super::pass) keeps: per `(observer, channels)` key,
/// one document per task, in task order, on disk ([`Docs`]).
#[derive(Default)]
pub(super) struct Views {
    pub(super) keys: Vec<(Observer, ChannelMask)>,
    pub(super) docs: Vec<Docs>,
}

impl Views {
    /// The documents of one view.
    ///
    /// # Errors
    ///
    /// The pass did not keep the view (a bug: every caller asks for a key
    /// it passed).
    pub(super) fn get(&self, obs: Observer, mask: ChannelMask) -> Result<&Docs, EvalError> {
        self.keys
            .iter()
            .position(|k| *k == (obs, mask))
            .and_then(|i| self.docs.get(i))
            .ok_or_else(|| {
                EvalError::Store(format!(
                    "no documents kept for the {} view through {}",
                    obs.as_str(),
                    mask.name()
                ))
            })
    }
}

/// What the adversaries are scored against: the label set, each label's
/// prototype, and every task's hidden label and group.
pub(super) struct Scorer<'a> {
    labels: &'a [String],
    /// Each label's prototype, as ids ([`prototypes`]).
    protos: Vec<Vec<u32>>,
    pub(super) truth: Vec<Option<usize>>,
    /// Each task's group, as an index.
    groups: Vec<u32>,
}

impl Scorer<'_> {
    /// Per labeled task, whether the adversary recovered its label.
    /// Documents are read back a batch at a time and predicted in parallel.
    pub(super) fn outcomes(
        &self,
        adv: Adversary,
        docs: &Docs,
        nb: Option<&Model<'_>>,
        vocab: &Vocab,
    ) -> Result<Outcomes, EvalError> {
        let mut preds: Vec<Option<usize>> = Vec::with_capacity(docs.len());
        match (adv, nb) {
            (Adversary::Keyword, _) => {
                let k = Keyword::new(&self.protos);
                docs.batches(|_, b| {
                    preds.par_extend(b.par_iter().map(|d| k.predict(d)));
                    Ok::<(), EvalError>(())
                })?;
            }
            (Adversary::Tfidf, _) => {
                let mut df = DocFreq::default();
                docs.batches(|_, b| {
                    b.iter().for_each(|d| df.add(d));
                    Ok::<(), EvalError>(())
                })?;
                let t = Tfidf::new(&self.protos, vocab, df);
                docs.batches(|_, b| {
                    preds.par_extend(b.par_iter().map(|d| t.predict(d, vocab)));
                    Ok::<(), EvalError>(())
                })?;
            }
            (Adversary::NaiveBayes, Some(m)) => {
                docs.batches(|first, b| {
                    // The training documents each prediction leaves out,
                    // read before the batch is predicted in parallel.
                    let held: Vec<Vec<(usize, Vec<u32>)>> = (first..first + b.len())
                        .map(|i| m.held_out(self.groups.get(i).copied().unwrap_or(u32::MAX)))
                        .collect::<Result<_, _>>()?;
                    preds.par_extend(b.par_iter().zip(&held).map(|(d, h)| m.nb.predict(d, h)));
                    Ok::<(), EvalError>(())
                })?;
            }
            (Adversary::NaiveBayes, None) => preds.resize(docs.len(), None),
        }
        Ok(preds
            .iter()
            .zip(&self.truth)
            .filter_map(|(p, t)| t.map(|t| *p == Some(t)))
            .collect())
    }

    /// Naive Bayes trained on the labeled documents of `docs`.
    fn train(&self, docs: &Docs) -> Result<NaiveBayes, EvalError> {
        let mut nb = NaiveBayes::new(self.labels.len());
        docs.batches(|first, b| {
            for (i, d) in (first..).zip(&b) {
                if let (Some(Some(t)), Some(g)) = (self.truth.get(i), self.groups.get(i)) {
                    nb.add(d, *t, *g, i);
                }
            }
            Ok::<(), EvalError>(())
        })?;
        Ok(nb)
    }
}

/// The hidden labels of the tasks, sorted, once each.
pub(super) fn task_labels<T: Tasks + ?Sized>(tasks: &T) -> Vec<String> {
    let mut labels = BTreeSet::new();
    for_each_task(tasks, |_, t| {
        if let Some(l) = t.label.as_ref().filter(|l| !labels.contains(*l)) {
            labels.insert(l.clone());
        }
    });
    labels.into_iter().collect()
}

impl<'l> Scorer<'l> {
    /// Ground truth and paired groups of every task; the labels'
    /// prototypes interned into `vocab`.
    pub(super) fn new<T: Tasks + ?Sized>(
        labels: &'l [String],
        tasks: &T,
        vocab: &mut Vocab,
    ) -> Scorer<'l> {
        let mut truth = Vec::with_capacity(tasks.len());
        let mut groups = Vec::with_capacity(tasks.len());
        let mut group_ids: HashMap<String, u32> = HashMap::new();
        for_each_task(tasks, |_, t| {
            truth.push(
                t.label
                    .as_ref()
                    .and_then(|l| labels.iter().position(|x| x == l)),
            );
            let next = u32::try_from(group_ids.len()).unwrap_or(u32::MAX);
            let g = match group_ids.get(t.group()) {
                Some(g) => *g,
                None => *group_ids.entry(t.group().to_owned()).or_insert(next),
            };
            groups.push(g);
        });
        Scorer {
            labels,
            protos: prototypes(labels, vocab),
            truth,
            groups,
        }
    }
}

/// An observer's adversaries, trained on the baseline's view of it.
pub(super) struct Model<'v> {
    pub(super) observer: Observer,
    nb: NaiveBayes,
    /// The documents `nb` was trained on: a prediction reads its group's
    /// back to leave them out.
    train: &'v Docs,
}

impl<'v> Model<'v> {
    pub(super) fn new(
        scorer: &Scorer<'_>,
        base: &'v Views,
        observer: Observer,
    ) -> Result<Model<'v>, EvalError> {
        Model::on(scorer, observer, base.get(observer, ChannelMask::FULL)?)
    }

    fn on(
        scorer: &Scorer<'_>,
        observer: Observer,
        train: &'v Docs,
    ) -> Result<Model<'v>, EvalError> {
        Ok(Model {
            observer,
            nb: scorer.train(train)?,
            train,
        })
    }

    /// The training documents of `group`, with their labels.
    fn held_out(&self, group: u32) -> Result<Vec<(usize, Vec<u32>)>, EvalError> {
        self.nb
            .members(group)
            .iter()
            .map(|&(c, i)| Ok((c, self.train.get(i)?)))
            .collect()
    }

    /// Each adversary's outcomes on a policy's view of the observer.
    pub(super) fn score(
        &self,
        scorer: &Scorer<'_>,
        views: &Views,
        opts: &EvalOptions,
        vocab: &Vocab,
    ) -> Result<Vec<Outcomes>, EvalError> {
        let d = views.get(self.observer, ChannelMask::FULL)?;
        opts.adversaries
            .iter()
            .map(|a| scorer.outcomes(*a, d, Some(self), vocab))
            .collect()
    }
}

/// The baseline's recovery from the provider's view with one channel at a
/// time (empty unless asked for).
pub(super) fn channel_ablation(
    scorer: &Scorer<'_>,
    base: &Views,
    opts: &EvalOptions,
    vocab: &Vocab,
) -> Result<Vec<ChannelRow>, EvalError> {
    let mut channels = Vec::new();
    if opts.channel_ablation {
        for mask in ABLATION {
            let d = base.get(Observer::Provider, mask)?;
            let model = Model::on(scorer, Observer::Provider, d)?;
            for adv in &opts.adversaries {
                let out = scorer.outcomes(*adv, d, Some(&model), vocab)?;
                channels.push(ChannelRow {
                    channels: mask.name().to_owned(),
                    adversary: *adv,
                    recovery: bootstrap_mean(&out, opts.resamples, opts.seed),
                });
            }
        }
    }
    Ok(channels)
}

/// The channel ablation's masks, in report order.
pub(super) const ABLATION: [ChannelMask; 4] = [
    ChannelMask::FULL,
    ChannelMask::ARGUMENTS,
    ChannelMask::DESTINATION,
    ChannelMask::TOOL,
];
