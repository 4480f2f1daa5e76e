//! Clock conversions for importers: civil dates to epoch ns, fixed UTC offsets (`--tz`), and
//! the date formats the peer tools write.

/// Longest time in seconds a source's value can mean (about 31 years): beyond it a value is
/// damaged, and its nanoseconds would not fit beside an epoch anchor on the i64 clock.
pub const MAX_SECONDS: f64 = 1e9;

/// Whether `x` seconds can be a time: finite and within ±`MAX_SECONDS`.
pub fn is_seconds(x: f64) -> bool {
    x.is_finite() && x.abs() <= MAX_SECONDS
}

/// Days from 1970-01-01 to a civil date (proleptic Gregorian; Howard Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A UTC offset in seconds from `--tz`: `UTC`, `Z`, `+02:00`, `-0530`, `+2`.
pub fn parse_offset(tz: &str) -> Result<i64, String> {
    let t = tz.trim();
    if matches!(t, "UTC" | "utc" | "Z" | "GMT") {
        return Ok(0);
    }
    let (sign, rest) = match t.as_bytes().first() {
        Some(b'+') => (1, &t[1..]),
        Some(b'-') => (-1, &t[1..]),
        _ => {
            return Err(format!(
                "--tz {tz:?}: give a UTC offset such as +02:00 or -0500 (zone names need daylight-saving rules, which credence does not ship)"
            ));
        }
    };
    let digits: String = rest.chars().filter(|c| *c != ':').collect();
    let (h, m) = match digits.len() {
        1 | 2 => (digits.parse::<i64>().ok(), Some(0)),
        4 => (digits[..2].parse::<i64>().ok(), digits[2..].parse::<i64>().ok()),
        _ => (None, None),
    };
    match (h, m) {
        (Some(h), Some(m)) if h <= 14 && m < 60 => Ok(sign * (h * 3600 + m * 60)),
        _ => Err(format!("--tz {tz:?}: not an offset like +02:00")),
    }
}

/// Parses `YYYY?MM?DD?HH?MM?SS[.fff…]` with any single separators (`2026/06/11 15:27:08.536`,
/// `2026-06-11T15:27:08Z`, `20260611-152708`), returning epoch ns for the given offset and
/// whether the text carried its own zone (`Z` or `±HH:MM`), which then wins.
pub fn parse_datetime(text: &str, offset_s: i64) -> Option<(i64, bool)> {
    let t = text.trim();
    let (body, zone) = split_zone(t);
    let digits: Vec<char> = body.chars().collect();
    let mut fields: Vec<String> = Vec::new();
    let mut frac = String::new();
    let mut cur = String::new();
    let mut in_frac = false;
    for c in digits {
        if c.is_ascii_digit() {
            if in_frac { frac.push(c) } else { cur.push(c) }
        } else if c == '.' && fields.len() >= 5 {
            fields.push(std::mem::take(&mut cur));
            in_frac = true;
        } else if !cur.is_empty() {
            fields.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        fields.push(cur);
    }
    // Compact forms: 20260611-152708.
    if fields.len() == 2 && fields[0].len() == 8 && fields[1].len() == 6 {
        let (a, b) = (fields[0].clone(), fields[1].clone());
        fields = vec![a[..4].into(), a[4..6].into(), a[6..].into(), b[..2].into(), b[2..4].into(), b[4..].into()];
    }
    // dmon: 20260611 15:26:45.
    if fields.len() >= 4 && fields[0].len() == 8 {
        let a = fields[0].clone();
        fields.splice(0..1, [a[..4].to_string(), a[4..6].to_string(), a[6..].to_string()]);
    }
    if fields.len() < 6 {
        return None;
    }
    let n: Vec<i64> = fields[..6].iter().map(|f| f.parse().ok()).collect::<Option<_>>()?;
    let clock_ok = (0..=23).contains(&n[3]) && (0..=59).contains(&n[4]) && (0..=60).contains(&n[5]);
    if !(1..=9999).contains(&n[0]) || !(1..=12).contains(&n[1]) || !(1..=31).contains(&n[2]) || !clock_ok {
        return None;
    }
    let frac_ns: i64 = if frac.is_empty() { 0 } else { format!("{:0<9}", &frac[..frac.len().min(9)]).parse().ok()? };
    let (off, own) = match zone {
        Some(z) => (z, true),
        None => (offset_s, false),
    };
    // Epoch nanoseconds in i64 reach only the years 1677 to 2262: a date outside is no time.
    let seconds = days_from_civil(n[0], n[1], n[2]) * 86_400 + n[3] * 3600 + n[4] * 60 + n[5] - off;
    Some((seconds.checked_mul(1_000_000_000)?.checked_add(frac_ns)?, own))
}

/// `--start`: an RFC 3339 time with its zone (`2026-11-30T22:27:52.5Z`, `…+01:00`), as epoch ns.
pub fn parse_start(text: &str) -> Result<i64, String> {
    match parse_datetime(text, 0) {
        Some((ns, true)) => Ok(ns),
        Some((_, false)) => Err(format!("--start {text:?}: give the zone too (…Z for UTC, or an offset such as +01:00)")),
        None => Err(format!("--start {text:?}: expected an RFC 3339 time such as 2026-11-30T22:27:52.5Z")),
    }
}

/// Splits a trailing `Z` or `±HH:MM` zone off an ISO time.
fn split_zone(t: &str) -> (&str, Option<i64>) {
    if let Some(b) = t.strip_suffix('Z') {
        return (b, Some(0));
    }
    // Six bytes from the end must also be a character boundary: the text may hold any UTF-8.
    let cut = t.len().wrapping_sub(6);
    if t.len() > 6 && t.is_char_boundary(cut) {
        let tail = &t[cut..];
        let b = tail.as_bytes();
        if (b[0] == b'+' || b[0] == b'-')
            && b[3] == b':'
            && t[..cut].contains('T')
            && let Ok(o) = parse_offset(tail)
        {
            return (&t[..cut], Some(o));
        }
    }
    (t, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by fuzzing (`fuzz/regressions/import_dcgm/zone-split-inside-a-character`): the zone
    /// split sliced six bytes from the end, inside a multi-byte character.
    #[test]
    fn a_zone_split_inside_a_multibyte_character_is_no_zone_not_a_panic() {
        assert_eq!(split_zone("2026-06-11T15:27:08 │ 20"), ("2026-06-11T15:27:08 │ 20", None));
        assert_eq!(split_zone("2026-06-11T15:27:08+01:00").1, Some(3600));
    }

    #[test]
    fn a_date_outside_epoch_nanoseconds_is_no_time() {
        assert_eq!(parse_datetime("9999-01-01T00:00:00Z", 0), None);
        assert_eq!(parse_datetime("44444444-06-01T00:00:00Z", 0), None);
        assert!(parse_datetime("2262-01-01T00:00:00Z", 0).is_some());
    }

    #[test]
    fn offsets_and_dates() {
        assert_eq!(parse_offset("+02:00"), Ok(7200));
        assert_eq!(parse_offset("-0530"), Ok(-19800));
        assert_eq!(parse_offset("UTC"), Ok(0));
        assert!(parse_offset("Europe/Berlin").is_err());
        // 2026-06-01T12:00:00Z = 1 780 315 200 s.
        assert_eq!(parse_datetime("2026-06-01T12:00:00Z", 3600), Some((1_780_315_200_000_000_000, true)));
        assert_eq!(parse_datetime("2026/06/01 14:00:00.500", 7200), Some((1_780_315_200_500_000_000, false)));
        assert_eq!(parse_datetime("20260601-120000", 0), Some((1_780_315_200_000_000_000, false)));
        assert_eq!(parse_datetime("2026-06-01T14:00:00+02:00", 0), Some((1_780_315_200_000_000_000, true)));
        assert_eq!(parse_datetime("20260601 12:00:00", 0), Some((1_780_315_200_000_000_000, false)));
        assert_eq!(parse_datetime("not a date", 0), None);
        assert_eq!(parse_start("2026-06-01T12:00:00.25Z"), Ok(1_780_315_200_250_000_000));
        assert!(parse_start("2026-06-01 12:00:00").unwrap_err().contains("zone"), "a zone-less --start is refused");
    }
}
