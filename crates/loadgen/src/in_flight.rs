//! What bounds the requests an open loop may have in flight at once: an explicit cap
//! (`--max-in-flight`, or a fixed pool of `--connections`), or else the process's
//! file-descriptor limit, raised to its hard limit at start where the OS allows it.

/// The bound on an open loop's connections (one request in flight on each).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// `--max-in-flight N`: the pool grows on demand up to N connections.
    MaxInFlight(u32),
    /// `--connections N`: a fixed pool of N connections opened before time zero; a request
    /// whose time comes while all N are busy waits (and shows as send lag).
    Connections(u32),
    /// Neither flag: the pool grows on demand up to this many connections, what the
    /// file-descriptor limit leaves after the descriptors the process already holds.
    FdLimit(u32),
}

impl Bound {
    /// The most connections (and so requests in flight) allowed.
    pub fn limit(self) -> u32 {
        match self {
            Bound::MaxInFlight(n) | Bound::Connections(n) | Bound::FdLimit(n) => n.max(1),
        }
    }
    /// Whether the pool grows on demand (false: a fixed pool).
    pub fn grows(self) -> bool {
        !matches!(self, Bound::Connections(_))
    }
    /// The bound as the user would name it in a warning.
    pub fn describe(self) -> String {
        match self {
            Bound::MaxInFlight(n) => format!("--max-in-flight {n}"),
            Bound::Connections(n) => format!("--connections {n}"),
            Bound::FdLimit(n) => format!("the file-descriptor limit (room for {n} connections; raise it with ulimit -n)"),
        }
    }
    /// The manifest's name for what set the bound.
    pub fn source(self) -> &'static str {
        match self {
            Bound::MaxInFlight(_) => "max_in_flight",
            Bound::Connections(_) => "connections",
            Bound::FdLimit(_) => "fd_limit",
        }
    }
}

/// The process's file-descriptor limit (RLIMIT_NOFILE) after `raise_fd_limit`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FdLimit {
    pub soft: u64,
    pub hard: u64,
}

/// Descriptors kept out of the connection budget: the run's files, stdio, the sampler's /proc reads.
const FD_RESERVE: u64 = 64;

/// Raises the soft RLIMIT_NOFILE to the hard limit (capped at the kernel's `nr_open`); returns
/// the limits in force afterwards, or `None` where they cannot be read.
pub fn raise_fd_limit() -> Option<FdLimit> {
    let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit read or write only the struct passed.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) } != 0 {
        return None;
    }
    let nr_open = std::fs::read_to_string("/proc/sys/fs/nr_open").ok().and_then(|t| t.trim().parse::<u64>().ok()).unwrap_or(u64::MAX);
    let target = r.rlim_max.min(nr_open);
    if r.rlim_cur < target {
        let raised = libc::rlimit { rlim_cur: target, rlim_max: r.rlim_max };
        // SAFETY: as above.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            r.rlim_cur = raised.rlim_cur;
        }
    }
    Some(FdLimit { soft: r.rlim_cur, hard: r.rlim_max })
}

/// How many connections the descriptor limit leaves room for: the soft limit less the
/// descriptors open now and a reserve.
pub fn fd_budget(limit: FdLimit) -> u32 {
    let open = std::fs::read_dir("/proc/self/fd").map_or(16, |d| d.count() as u64);
    limit.soft.saturating_sub(open + FD_RESERVE).clamp(1, u64::from(u32::MAX)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_soft_limit_is_raised_to_the_hard_one() {
        let l = raise_fd_limit().expect("RLIMIT_NOFILE readable on Linux");
        assert!(l.soft <= l.hard);
        let nr_open = std::fs::read_to_string("/proc/sys/fs/nr_open").unwrap().trim().parse::<u64>().unwrap();
        assert_eq!(l.soft, l.hard.min(nr_open), "soft limit raised as far as the OS allows");
        assert!(u64::from(fd_budget(l)) < l.soft);
        assert_eq!(Bound::FdLimit(5).limit(), 5);
        assert!(!Bound::Connections(4).grows() && Bound::MaxInFlight(4).grows());
    }
}
