//! Kalibera & Jones variance components for hierarchical repetitions (libkalibera
//! conventions): `S_i²` per level, unbiased components `T_i²` and optimal repetition counts.
//! Level 1 is the lowest (e.g. requests), the top level the highest (e.g. runs).

/// Balanced hierarchical data: a leaf holds the lowest-level values of one cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Leaf(Vec<f64>),
    Inner(Vec<Node>),
}

impl Node {
    fn mean(&self) -> f64 {
        match self {
            Node::Leaf(v) => v.iter().sum::<f64>() / v.len() as f64,
            Node::Inner(c) => c.iter().map(Node::mean).sum::<f64>() / c.len() as f64,
        }
    }

    fn depth(&self) -> usize {
        match self {
            Node::Leaf(_) => 1,
            Node::Inner(c) => 1 + c.first().map_or(0, Node::depth),
        }
    }

    /// Repetitions per level, lowest first.
    fn reps(&self) -> Vec<usize> {
        match self {
            Node::Leaf(v) => vec![v.len()],
            Node::Inner(c) => {
                let mut r = c.first().map_or(Vec::new(), Node::reps);
                r.push(c.len());
                r
            }
        }
    }

    /// Σ over the nodes at `level` below this node of (node mean − parent mean)². A node at
    /// `own_level` has children at `own_level − 1`; a leaf sits at level 2, its values at 1.
    fn squared_deviations(&self, level: usize, own_level: usize) -> f64 {
        match self {
            Node::Leaf(v) => {
                let m = self.mean();
                v.iter().map(|x| (x - m).powi(2)).sum()
            }
            Node::Inner(c) if own_level == level + 1 => {
                let m = self.mean();
                c.iter().map(|ch| (ch.mean() - m).powi(2)).sum()
            }
            Node::Inner(c) => c.iter().map(|ch| ch.squared_deviations(level, own_level - 1)).sum(),
        }
    }
}

/// Variance components of a balanced tree.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Components {
    /// `S_i²`, lowest level first.
    pub s2: Vec<f64>,
    /// `T_i²` (may be negative; clamp at 0 where used), lowest level first.
    pub t2: Vec<f64>,
    /// Repetitions per level, lowest first.
    pub reps: Vec<usize>,
}

/// `S_i² = Σ (ȳ_index − ȳ_parent)² / ((r_i − 1)·Π_{j>i} r_j)`, `T_1² = S_1²`,
/// `T_i² = S_i² − S_{i−1}²/r_{i−1}`. `None` for unbalanced data or a level with one repetition.
pub fn components(root: &Node) -> Option<Components> {
    let reps = root.reps();
    let n = root.depth();
    if reps.iter().any(|&r| r < 2) || !balanced(root, &reps) {
        return None;
    }
    let mut s2 = Vec::with_capacity(n);
    for i in 1..=n {
        let above: usize = reps[i..].iter().product();
        s2.push(root.squared_deviations(i, n + 1) / ((reps[i - 1] - 1) as f64 * above as f64));
    }
    let mut t2 = vec![s2[0]];
    for i in 1..n {
        t2.push(s2[i] - s2[i - 1] / reps[i - 1] as f64);
    }
    Some(Components { s2, t2, reps })
}

fn balanced(node: &Node, reps: &[usize]) -> bool {
    match node {
        Node::Leaf(v) => reps.len() == 1 && v.len() == reps[0],
        Node::Inner(c) => c.len() == reps[reps.len() - 1] && c.iter().all(|ch| balanced(ch, &reps[..reps.len() - 1])),
    }
}

/// Optimal repetitions at level `i` (1-based, lowest first, `i < levels`) given the cost of one
/// repetition per level, lowest first: `r_i = sqrt((c_{i+1}/c_i)·T_i²/T_{i+1}²)` (unrounded).
pub fn optimal_repetitions(c: &Components, i: usize, costs: &[f64]) -> Option<f64> {
    let (t_i, t_next) = (*c.t2.get(i - 1)?, *c.t2.get(i)?);
    let (c_i, c_next) = (*costs.get(i - 1)?, *costs.get(i)?);
    (t_next > 0.0 && t_i >= 0.0).then(|| ((c_next / c_i) * t_i / t_next).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use Node::{Inner, Leaf};

    fn leaf(v: &[f64]) -> Node {
        Leaf(v.to_vec())
    }

    // libkalibera test_data.py: the paper's 3-level example, reps = [3, 2, 2] (high to low).
    #[test]
    fn three_level_worked_example() {
        let root = Inner(vec![
            Inner(vec![leaf(&[9.0, 5.0]), leaf(&[8.0, 3.0])]),
            Inner(vec![leaf(&[10.0, 6.0]), leaf(&[7.0, 11.0])]),
            Inner(vec![leaf(&[1.0, 12.0]), leaf(&[2.0, 4.0])]),
        ]);
        assert_eq!(root.mean(), 6.5);
        let c = components(&root).unwrap();
        let r1 = |x: f64| (x * 10.0).round() / 10.0;
        assert_eq!(c.s2.iter().map(|&x| r1(x)).collect::<Vec<_>>(), vec![16.5, 2.6, 3.6]);
        assert_eq!(c.t2.iter().map(|&x| r1(x)).collect::<Vec<_>>(), vec![16.5, -5.7, 2.3]);
    }

    #[test]
    fn two_level_example() {
        let root = Inner(vec![leaf(&[9.0, 5.0, 8.0, 3.0]), leaf(&[10.0, 6.0, 7.0, 11.0]), leaf(&[1.0, 12.0, 2.0, 4.0])]);
        let c = components(&root).unwrap();
        let r1 = |x: f64| (x * 10.0).round() / 10.0;
        assert_eq!((r1(c.s2[0]), r1(c.s2[1])), (12.7, 3.6));
        assert_eq!((r1(c.t2[0]), r1(c.t2[1])), (12.7, 0.4));
    }

    // libkalibera: T² = [0.7266667, 0.262777778, 0.7747]; optimalreps with costs (100, 20, 3)
    // high to low → [4.2937, 1.3023].
    #[test]
    fn optimal_repetitions_example() {
        let root = Inner(vec![Inner(vec![leaf(&[3.0, 4.0, 3.0]), leaf(&[1.2, 3.1, 3.0])]), Inner(vec![leaf(&[0.2, 1.0, 1.5]), leaf(&[1.0, 2.0, 3.0])])]);
        let c = components(&root).unwrap();
        for (got, want) in c.t2.iter().zip([0.7266667, 0.262777778, 0.7747]) {
            assert!((got - want).abs() < 1e-4, "{got} vs {want}");
        }
        let costs_low_first = [3.0, 20.0, 100.0];
        assert!((optimal_repetitions(&c, 1, &costs_low_first).unwrap() - 4.2937).abs() < 1e-3);
        assert!((optimal_repetitions(&c, 2, &costs_low_first).unwrap() - 1.3023).abs() < 1e-3);
    }

    #[test]
    fn unbalanced_data_is_refused() {
        assert!(components(&Inner(vec![leaf(&[1.0, 2.0]), leaf(&[1.0, 2.0, 3.0])])).is_none());
    }
}
