//! A bound on the work of parsing a Parquet footer, checked before the parquet crate parses it.
//!
//! The footer is Thrift (compact protocol). The parquet crate skips fields it does not know, and
//! it skips the elements of a `list<bool>` without consuming their bytes (in the compact protocol
//! each takes one), so a list claiming two billion booleans spins two billion times over a few
//! bytes: a 1-KB file found by fuzzing (`run_parquet`) held `validate` for 0.3 s, and one with
//! more such lists would hold it for hours. Every element of a list, set or map takes at least
//! one byte, so a count larger than the bytes left cannot be valid: this walk refuses it, in
//! time proportional to the footer's size. It also refuses any collection of booleans, which
//! no footer holds and after which the crate reads on from the wrong place (`no_booleans`), and
//! any value of a type the compact protocol does not define. What else it does not judge (a
//! truncated footer, deep nesting) is left to the parquet crate, whose errors say more.
//!
//! The crate reads known fields by their declared types rather than the wire's, so no walk of
//! the wire can foresee every path it takes (the fuzzer found three that spin). `open` therefore
//! also bounds the crate's parse in time (`PARSE_LIMIT`), and every Parquet file credence reads
//! goes through it.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ParquetRecordBatchReaderBuilder};

/// The longest the parquet crate may take to parse one footer. A valid footer of the largest run
/// takes milliseconds; a damaged one the walk below does not catch can spin for hours.
pub const PARSE_LIMIT: Duration = Duration::from_secs(10);

/// Opens the Parquet file `file` for reading: the walk below, then the parquet crate's parse of
/// the footer on a helper thread, waited for at most `PARSE_LIMIT`. The walk catches the
/// footers the fuzzer found that make the crate spin; the limit bounds the ones nobody has found
/// yet (the helper then keeps spinning until the process exits, which a command that reports
/// the damaged file does at once). A panic inside the crate becomes an error too.
pub fn open(path: &Path, file: File) -> Result<ParquetRecordBatchReaderBuilder<File>, String> {
    check(path).map_err(|d| d.0)?;
    let reader = file.try_clone().map_err(|e| e.to_string())?;
    let metadata = within(PARSE_LIMIT, move || ArrowReaderMetadata::load(&reader, Default::default()))?.map_err(|e| e.to_string())?;
    Ok(ParquetRecordBatchReaderBuilder::new_with_metadata(file, metadata))
}

/// Runs `work` on a helper thread and waits at most `limit` for it.
fn within<T: Send + 'static>(limit: Duration, work: impl FnOnce() -> T + Send + 'static) -> Result<T, String> {
    let (tx, rx) = channel();
    std::thread::Builder::new()
        .name("parquet-footer".into())
        .spawn(move || {
            let _ = tx.send(work());
        })
        .map_err(|e| format!("cannot start the footer parser: {e}"))?;
    match rx.recv_timeout(limit) {
        Ok(done) => Ok(done),
        Err(RecvTimeoutError::Timeout) => Err(format!("damaged footer: parsing it took over {} s (a valid footer takes milliseconds)", limit.as_secs())),
        Err(RecvTimeoutError::Disconnected) => Err("damaged footer: the Parquet reader failed on it".to_string()),
    }
}

/// Deepest nesting walked; deeper footers are left to the parquet crate (which limits depth).
const MAX_DEPTH: usize = 64;

/// Why a footer was refused.
#[derive(Debug, Clone, PartialEq)]
pub struct DamagedFooter(pub String);

/// Checks the footer of the Parquet file at `path`. Errors only for a footer with a list, set or
/// map that claims more elements than it has bytes or that holds booleans; a file that is not
/// Parquet, or that cannot be read, passes (the reader then reports it).
pub fn check(path: &Path) -> Result<(), DamagedFooter> {
    match read_footer(path) {
        Some(bytes) => check_bytes(&bytes),
        None => Ok(()),
    }
}

/// The footer's Thrift bytes: the `len` bytes before the trailing `len` (u32 LE) and `PAR1`.
fn read_footer(path: &Path) -> Option<Vec<u8>> {
    let mut file = std::fs::File::open(path).ok()?;
    let size = file.metadata().ok()?.len();
    if size < 12 {
        return None;
    }
    let mut tail = [0u8; 8];
    file.seek(SeekFrom::Start(size - 8)).ok()?;
    file.read_exact(&mut tail).ok()?;
    if &tail[4..] != b"PAR1" {
        return None;
    }
    let len = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
    if len + 8 > size {
        return None;
    }
    let mut bytes = vec![0u8; len as usize];
    file.seek(SeekFrom::Start(size - 8 - len)).ok()?;
    file.read_exact(&mut bytes).ok()?;
    Some(bytes)
}

/// Walks a footer (the `FileMetaData` struct).
pub fn check_bytes(bytes: &[u8]) -> Result<(), DamagedFooter> {
    let mut walk = Walk { bytes, at: 0 };
    match walk.structure(0) {
        Err(Stop::Damaged(why)) => Err(DamagedFooter(why)),
        Ok(()) | Err(Stop::LeaveToParquet) => Ok(()),
    }
}

enum Stop {
    /// A count no valid footer can hold.
    Damaged(String),
    /// Something this walk does not judge.
    LeaveToParquet,
}

/// Compact-protocol type codes (thrift-compact-protocol.md).
const BOOL_TRUE: u8 = 1;
const BOOL_FALSE: u8 = 2;
const BYTE: u8 = 3;
const I16: u8 = 4;
const I32: u8 = 5;
const I64: u8 = 6;
const DOUBLE: u8 = 7;
const BINARY: u8 = 8;
const LIST: u8 = 9;
const SET: u8 = 10;
const MAP: u8 = 11;
const STRUCT: u8 = 12;
const UUID: u8 = 13;

/// Refuses a collection of booleans. No Parquet footer holds one (`FileMetaData` and what it
/// contains have boolean fields, never lists, sets or maps of them), and the parquet crate skips
/// their elements without consuming their bytes: after one, it reads the rest of the footer
/// from the wrong place, where any count can appear (a 1.5-KB file held `validate` for 0.8 s
/// that way, and a fuzz build for 22 s, though every count this walk saw fitted its bytes).
fn no_booleans(what: &str, count: u64, element_types: &[u8]) -> Result<(), Stop> {
    if count > 0 && element_types.iter().any(|&t| t == BOOL_TRUE || t == BOOL_FALSE) {
        let plural = if count == 1 { "" } else { "s" };
        return Err(Stop::Damaged(format!("damaged footer: a {what} of booleans ({count} element{plural}), which no Parquet footer holds")));
    }
    Ok(())
}

struct Walk<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Walk<'_> {
    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn byte(&mut self) -> Result<u8, Stop> {
        let b = *self.bytes.get(self.at).ok_or(Stop::LeaveToParquet)?;
        self.at += 1;
        Ok(b)
    }

    fn skip(&mut self, n: usize) -> Result<(), Stop> {
        if n > self.left() {
            return Err(Stop::LeaveToParquet);
        }
        self.at += n;
        Ok(())
    }

    /// An unsigned LEB128 varint (at most 10 bytes).
    fn varint(&mut self) -> Result<u64, Stop> {
        let mut value = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(Stop::LeaveToParquet)
    }

    /// A collection of `count` elements, each at least `min_bytes` long, must fit in what is left.
    fn fits(&self, what: &str, count: u64, min_bytes: u64) -> Result<(), Stop> {
        let left = self.left() as u64;
        if count.saturating_mul(min_bytes) > left {
            return Err(Stop::Damaged(format!("damaged footer: a {what} claims {count} elements in the {left} bytes left of the footer")));
        }
        Ok(())
    }

    /// A struct's fields up to its stop byte.
    fn structure(&mut self, depth: usize) -> Result<(), Stop> {
        if depth > MAX_DEPTH {
            return Err(Stop::LeaveToParquet);
        }
        loop {
            let header = self.byte()?;
            let ty = header & 0x0f;
            if ty == 0 {
                return Ok(());
            }
            if header >> 4 == 0 {
                self.varint()?; // the field id, when not a delta
            }
            match ty {
                BOOL_TRUE | BOOL_FALSE => {} // a boolean field's value is its type
                _ => self.value(ty, depth + 1)?,
            }
        }
    }

    /// One value of type `ty` (a boolean here is a collection element: one byte).
    fn value(&mut self, ty: u8, depth: usize) -> Result<(), Stop> {
        match ty {
            BOOL_TRUE | BOOL_FALSE | BYTE => self.skip(1),
            I16 | I32 | I64 => self.varint().map(|_| ()),
            DOUBLE => self.skip(8),
            BINARY => {
                let n = self.varint()?;
                self.skip(usize::try_from(n).map_err(|_| Stop::LeaveToParquet)?)
            }
            LIST | SET => self.list(depth),
            MAP => self.map(depth),
            STRUCT => self.structure(depth),
            UUID => self.skip(16),
            // No writer puts any other type in a footer (an empty list's header may be 0, and it
            // has no elements to get here). The parquet crate reads known fields by their declared
            // types, not the wire's, so past such a byte it and this walk part ways, and it can
            // spin where this walk never looks.
            _ => Err(Stop::Damaged(format!("damaged footer: a value of unknown Thrift type {ty} at byte {}", self.at))),
        }
    }

    fn list(&mut self, depth: usize) -> Result<(), Stop> {
        if depth > MAX_DEPTH {
            return Err(Stop::LeaveToParquet);
        }
        let header = self.byte()?;
        let element = header & 0x0f;
        let count = match header >> 4 {
            15 => self.varint()?,
            n => u64::from(n),
        };
        self.fits("list", count, 1)?;
        no_booleans("list", count, &[element])?;
        (0..count).try_for_each(|_| self.value(element, depth + 1))
    }

    fn map(&mut self, depth: usize) -> Result<(), Stop> {
        if depth > MAX_DEPTH {
            return Err(Stop::LeaveToParquet);
        }
        let count = self.varint()?;
        if count == 0 {
            return Ok(());
        }
        let types = self.byte()?;
        self.fits("map", count, 2)?;
        no_booleans("map", count, &[types >> 4, types & 0x0f])?;
        (0..count).try_for_each(|_| {
            self.value(types >> 4, depth + 1)?;
            self.value(types & 0x0f, depth + 1)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A struct with field 1 a `list<bool>` claiming `count` elements (a varint size), then the
    /// elements actually present, then stop.
    fn footer_with_bool_list(count: u64, present: usize) -> Vec<u8> {
        let mut b = vec![0x19, 0xf1]; // field 1 (delta), type list; list header: size follows, element bool
        let mut n = count;
        loop {
            let byte = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                b.push(byte);
                break;
            }
            b.push(byte | 0x80);
        }
        b.extend(std::iter::repeat_n(1u8, present));
        b.push(0); // stop
        b
    }

    #[test]
    fn a_list_claiming_more_elements_than_bytes_is_refused_at_once() {
        let forged = footer_with_bool_list(2_000_000_000, 3);
        let started = std::time::Instant::now();
        let err = check_bytes(&forged).unwrap_err();
        assert!(started.elapsed().as_millis() < 50, "the walk is proportional to the footer");
        assert!(err.0.contains("claims 2000000000 elements"), "{}", err.0);
        // Field 1, a list of three i32s (zigzag 1, 2, 3), then the stop byte.
        assert_eq!(check_bytes(&[0x19, 0x35, 0x02, 0x04, 0x06, 0x00]), Ok(()), "a list that fits passes");
    }

    /// A list of booleans that fits its bytes is refused too: the parquet crate would skip it
    /// without consuming them and read on from the wrong place (`no_booleans`).
    #[test]
    fn a_collection_of_booleans_is_refused() {
        let err = check_bytes(&footer_with_bool_list(3, 3)).unwrap_err();
        assert!(err.0.contains("a list of booleans (3 elements)"), "{}", err.0);
        // Field 1, a map of one i32 key to a boolean, then the stop byte.
        let err = check_bytes(&[0x1b, 0x01, 0x51, 0x02, 0x01, 0x00]).unwrap_err();
        assert!(err.0.contains("a map of booleans (1 element)"), "{}", err.0);
        assert_eq!(check_bytes(&[0x19, 0x01, 0x00]), Ok(()), "an empty list of booleans holds nothing");
    }

    /// Found by fuzzing (`run_parquet`, session 8): nested maps down to one whose values have
    /// type 0. The crate, reading known fields by their declared types, went elsewhere and spun
    /// (0.1–0.2 s in release on 1.5 KB, 15 s in the fuzz build).
    #[test]
    fn a_value_of_an_unknown_type_is_refused() {
        // Field 1, a map of one i16 key (zigzag 1) to a value of type 0, then the stop byte.
        let err = check_bytes(&[0x1b, 0x01, 0x40, 0x02, 0x00]).unwrap_err();
        assert!(err.0.contains("unknown Thrift type 0"), "{}", err.0);
        // Field 1 of type 14, which the compact protocol does not define.
        let err = check_bytes(&[0x1e, 0x00]).unwrap_err();
        assert!(err.0.contains("unknown Thrift type 14"), "{}", err.0);
        assert_eq!(check_bytes(&[0x19, 0x00, 0x00]), Ok(()), "an empty list whose header is 0");
    }

    #[test]
    fn a_parse_past_its_limit_is_an_error_and_a_panic_too() {
        assert_eq!(within(Duration::from_secs(5), || 42), Ok(42));
        let slow = within(Duration::from_millis(20), || std::thread::sleep(Duration::from_millis(500)));
        assert!(slow.unwrap_err().contains("took over 0 s"));
        let panicked = within(Duration::from_secs(5), || -> u8 { panic!("inside the reader") });
        assert!(panicked.unwrap_err().contains("failed"));
    }

    #[test]
    fn footers_the_writer_makes_pass() {
        let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/demo");
        for table in ["requests.parquet", "gpu.parquet", "host.parquet"] {
            let path = demo.join(table).display().to_string();
            let bytes = read_footer(Path::new(&path)).unwrap_or_else(|| panic!("{path} has a footer"));
            assert!(bytes.len() > 100);
            assert_eq!(check_bytes(&bytes), Ok(()), "{path}");
        }
    }

    #[test]
    fn what_it_cannot_judge_is_left_to_the_parquet_reader() {
        assert_eq!(check_bytes(&[0x19]), Ok(()), "truncated");
        assert_eq!(check(Path::new("Cargo.toml")), Ok(()), "not Parquet at all");
    }
}
