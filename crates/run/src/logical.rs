//! Arrow's physical types read as credence's logical column types. pyarrow, polars and DuckDB
//! each encode the same logical column differently (`LargeUtf8`, `Utf8View`, dictionaries;
//! `LargeList` and a child named `element`; timestamps in µs; signed integers), so a run
//! directory rewritten by any of them must read as the one credence wrote.
//!
//! Accepted, by logical type:
//! - string: Utf8, LargeUtf8, Utf8View, or a dictionary of those;
//! - timestamp: Timestamp in s, ms, µs or ns with a UTC zone (a zone-less one is refused:
//!   its instant is unknown);
//! - list of timestamps: List or LargeList, any child name, of such timestamps;
//! - unsigned integers: any integer width or sign whose values fit;
//! - float: Float64, Float32, Float16, or any integer.

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrowPrimitiveType, GenericListArray, Int64Array, OffsetSizeTrait, StringArray};
use arrow_schema::{DataType, TimeUnit};

use super::schema::ColumnType;
use super::table::{Column, TimestampLists};

/// Why a file's column does not hold the logical type, with a hint when the fix is known.
pub fn type_mismatch(actual: &DataType, ty: ColumnType) -> Option<String> {
    if accepts(actual, ty) {
        return None;
    }
    let hint = match (actual, ty) {
        (DataType::Timestamp(_, None), ColumnType::Timestamp | ColumnType::TimestampList) => {
            "; timestamps must carry the UTC time zone (polars writes them without one: use .dt.replace_time_zone(\"UTC\"))"
        }
        (DataType::List(f) | DataType::LargeList(f), ColumnType::TimestampList) if matches!(f.data_type(), DataType::Timestamp(_, None)) => {
            "; the list's timestamps must carry the UTC time zone"
        }
        _ => "",
    };
    Some(format!("has type {actual}{hint}"))
}

/// The physical types this module reads as `ty`.
pub fn accepts(actual: &DataType, ty: ColumnType) -> bool {
    match ty {
        ColumnType::Timestamp => is_utc_timestamp(actual),
        ColumnType::TimestampList => matches!(actual, DataType::List(f) | DataType::LargeList(f) if is_utc_timestamp(f.data_type())),
        ColumnType::Utf8 => is_string(actual) || matches!(actual, DataType::Dictionary(k, v) if k.is_integer() && is_string(v)),
        ColumnType::UInt32 | ColumnType::UInt64 => actual.is_integer(),
        ColumnType::Float64 => actual.is_floating() || actual.is_integer(),
    }
}

fn is_string(t: &DataType) -> bool {
    matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
}

fn is_utc_timestamp(t: &DataType) -> bool {
    matches!(t, DataType::Timestamp(_, Some(tz)) if matches!(tz.as_ref(), "UTC" | "utc" | "Etc/UTC" | "Z" | "+00:00" | "+0000" | "GMT" | "Etc/GMT"))
}

/// A value that its logical type cannot hold: the row within the array, and why.
#[derive(Debug)]
pub struct BadValue {
    pub row: usize,
    pub message: String,
}

/// Appends an array (whose type `accepts` took) to a column, converting as it goes. Strings
/// go to `strings` as Utf8 arrays, joined once when the table is finished.
pub fn append(column: &mut Column, strings: &mut Vec<StringArray>, array: &dyn Array) -> Result<(), BadValue> {
    match column {
        Column::Timestamp(v) => {
            let (raw, scale) = raw_timestamps(array);
            if scale == 1 {
                v.extend(raw.iter());
            } else {
                for (row, x) in raw.iter().enumerate() {
                    v.push(x.map(|x| to_ns(x, scale, row)).transpose()?);
                }
            }
        }
        // The types credence writes itself are copied straight; others are converted.
        Column::UInt32(v) if array.data_type() == &DataType::UInt32 => v.extend(array.as_primitive::<UInt32Type>().iter()),
        Column::UInt64(v) if array.data_type() == &DataType::UInt64 => v.extend(array.as_primitive::<UInt64Type>().iter()),
        Column::Float64(v) if array.data_type() == &DataType::Float64 => v.extend(array.as_primitive::<Float64Type>().iter()),
        Column::UInt32(v) => v.extend(unsigned(array, u32::MAX as u64)?.into_iter().map(|x| x.map(|x| x as u32))),
        Column::UInt64(v) => v.extend(unsigned(array, u64::MAX)?),
        Column::Float64(v) => v.extend(floats(array)),
        Column::Utf8(_) => strings.push(utf8(array)),
        Column::TimestampList(l) => match array.data_type() {
            DataType::LargeList(_) => append_list(l, array.as_list::<i64>())?,
            _ => append_list(l, array.as_list::<i32>())?,
        },
    }
    Ok(())
}

/// Appends a list of timestamps row by row, reading its offsets in place.
fn append_list<O: OffsetSizeTrait>(l: &mut TimestampLists, list: &GenericListArray<O>) -> Result<(), BadValue> {
    let (values, scale) = raw_timestamps(list.values().as_ref());
    let offsets = list.value_offsets();
    for row in 0..list.len() {
        if list.is_null(row) {
            l.push(None);
            continue;
        }
        for i in offsets[row].as_usize()..offsets[row + 1].as_usize() {
            if values.is_null(i) {
                l.null_items.push(l.len());
            } else {
                l.values.push(to_ns(values.value(i), scale, row)?);
            }
        }
        l.valid.push(true);
        l.offsets.push(l.values.len());
    }
    Ok(())
}

/// A timestamp array of any unit as its raw i64 values (sharing its buffers) and the factor
/// that turns them into nanoseconds.
fn raw_timestamps(array: &dyn Array) -> (Int64Array, i64) {
    let DataType::Timestamp(unit, _) = array.data_type() else { unreachable!("accepts() admits only timestamps here") };
    let scale = match unit {
        TimeUnit::Nanosecond => 1,
        TimeUnit::Microsecond => 1_000,
        TimeUnit::Millisecond => 1_000_000,
        TimeUnit::Second => 1_000_000_000,
    };
    let data = array.to_data().into_builder().data_type(DataType::Int64).build().expect("a timestamp array is an i64 array");
    (Int64Array::from(data), scale)
}

/// Nanoseconds from a raw value; beyond the i64 range of nanoseconds (after the year 2262)
/// the value is refused rather than wrapped.
fn to_ns(x: i64, scale: i64, row: usize) -> Result<i64, BadValue> {
    x.checked_mul(scale).ok_or_else(|| BadValue { row, message: format!("timestamp {x} (units of {scale} ns) is beyond the nanosecond range") })
}

/// Unsigned values from any integer type; a negative value or one above `max` is refused.
fn unsigned(array: &dyn Array, max: u64) -> Result<Vec<Option<u64>>, BadValue> {
    let wide = integers(array);
    wide.into_iter()
        .enumerate()
        .map(|(row, v)| match v {
            None => Ok(None),
            Some(x) if (0..=max as i128).contains(&x) => Ok(Some(x as u64)),
            Some(x) => Err(BadValue { row, message: format!("value {x} does not fit (expected 0 to {max})") }),
        })
        .collect()
}

/// Any integer array's values, widened without loss.
fn integers(array: &dyn Array) -> Vec<Option<i128>> {
    fn wide<T: ArrowPrimitiveType>(a: &dyn Array) -> Vec<Option<i128>>
    where
        T::Native: Into<i128>,
    {
        a.as_primitive::<T>().iter().map(|v| v.map(Into::into)).collect()
    }
    match array.data_type() {
        DataType::Int8 => wide::<Int8Type>(array),
        DataType::Int16 => wide::<Int16Type>(array),
        DataType::Int32 => wide::<Int32Type>(array),
        DataType::Int64 => wide::<Int64Type>(array),
        DataType::UInt8 => wide::<UInt8Type>(array),
        DataType::UInt16 => wide::<UInt16Type>(array),
        DataType::UInt32 => wide::<UInt32Type>(array),
        DataType::UInt64 => wide::<UInt64Type>(array),
        other => unreachable!("accepts() admits only integers here, not {other}"),
    }
}

/// f64 values from any float or integer array (integers above 2^53 round, as in every tool).
fn floats(array: &dyn Array) -> Vec<Option<f64>> {
    match array.data_type() {
        DataType::Float32 => array.as_primitive::<Float32Type>().iter().map(|v| v.map(f64::from)).collect(),
        DataType::Float16 => array.as_primitive::<Float16Type>().iter().map(|v| v.map(f64::from)).collect(),
        _ => integers(array).into_iter().map(|v| v.map(|x| x as f64)).collect(),
    }
}

/// A Utf8 array from any string encoding or a dictionary of strings.
fn utf8(array: &dyn Array) -> StringArray {
    match array.data_type() {
        DataType::Utf8 => array.as_string::<i32>().clone(),
        DataType::LargeUtf8 => array.as_string::<i64>().iter().collect(),
        DataType::Utf8View => array.as_string_view().iter().collect(),
        DataType::Dictionary(_, _) => {
            let dict = array.as_any_dictionary();
            let values = utf8(dict.values().as_ref());
            let keys = dict.normalized_keys();
            (0..array.len()).map(|i| (array.is_valid(i) && values.is_valid(keys[i])).then(|| values.value(keys[i]))).collect()
        }
        other => unreachable!("accepts() admits only strings here, not {other}"),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::builder::{LargeListBuilder, TimestampMillisecondBuilder};
    use arrow_array::{DictionaryArray, Int64Array, LargeStringArray, StringViewArray, TimestampMillisecondArray, TimestampNanosecondArray};
    use arrow_schema::{DataType, Field, TimeUnit};

    use super::*;

    fn append_one(ty: ColumnType, array: &dyn Array) -> Result<(Column, Vec<StringArray>), BadValue> {
        assert!(accepts(array.data_type(), ty), "{} should be read as {ty:?}", array.data_type());
        let mut column = Column::empty(ty);
        let mut strings = Vec::new();
        append(&mut column, &mut strings, array)?;
        Ok((column, strings))
    }

    #[test]
    fn timestamps_of_any_unit_become_nanoseconds() {
        let ms = TimestampMillisecondArray::from(vec![Some(1_780_315_200_123), None]).with_timezone("+00:00");
        let (Column::Timestamp(v), _) = append_one(ColumnType::Timestamp, &ms).unwrap() else { panic!() };
        assert_eq!(v, vec![Some(1_780_315_200_123_000_000), None]);
        let too_far = TimestampMillisecondArray::from(vec![i64::MAX / 10]).with_timezone("UTC");
        let err = append_one(ColumnType::Timestamp, &too_far).unwrap_err();
        assert_eq!(err.row, 0);
        assert!(err.message.contains("beyond the nanosecond range"), "{}", err.message);
    }

    #[test]
    fn zone_less_timestamps_are_refused_with_a_hint() {
        let naive = DataType::Timestamp(TimeUnit::Nanosecond, None);
        assert!(type_mismatch(&naive, ColumnType::Timestamp).unwrap().contains("UTC time zone"));
        assert!(type_mismatch(&DataType::Timestamp(TimeUnit::Microsecond, Some("Europe/Paris".into())), ColumnType::Timestamp).is_some());
        assert!(type_mismatch(&DataType::Utf8, ColumnType::Timestamp).is_some());
    }

    #[test]
    fn large_lists_with_any_child_name_and_unit() {
        let mut b = LargeListBuilder::new(TimestampMillisecondBuilder::new().with_timezone("UTC")).with_field(Arc::new(Field::new(
            "element",
            DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
            true,
        )));
        b.values().append_value(1);
        b.values().append_null();
        b.append(true);
        b.append(false);
        b.values().append_value(3);
        b.append(true);
        let (Column::TimestampList(l), _) = append_one(ColumnType::TimestampList, &b.finish()).unwrap() else { panic!() };
        assert_eq!(l.values, vec![1_000_000, 3_000_000]);
        assert_eq!(l.valid, vec![true, false, true]);
        assert_eq!(l.null_items, vec![0], "the null item of row 0 is reported, not dropped silently");
    }

    #[test]
    fn strings_in_every_encoding() {
        let want = vec![Some("a"), None, Some("b")];
        let large = LargeStringArray::from(want.clone());
        let view = StringViewArray::from(want.clone());
        let dict: DictionaryArray<arrow_array::types::Int8Type> = want.clone().into_iter().collect();
        for array in [&large as &dyn Array, &view, &dict] {
            let (_, parts) = append_one(ColumnType::Utf8, array).unwrap();
            assert_eq!(parts[0].iter().collect::<Vec<_>>(), want, "{}", array.data_type());
        }
    }

    #[test]
    fn integers_that_fit_and_those_that_do_not() {
        let ok = Int64Array::from(vec![Some(0), None, Some(4_294_967_295)]);
        let (Column::UInt32(v), _) = append_one(ColumnType::UInt32, &ok).unwrap() else { panic!() };
        assert_eq!(v, vec![Some(0), None, Some(u32::MAX)]);
        let negative = Int64Array::from(vec![5, -1]);
        let err = append_one(ColumnType::UInt64, &negative).unwrap_err();
        assert_eq!((err.row, err.message.contains("-1")), (1, true));
        let (Column::Float64(f), _) = append_one(ColumnType::Float64, &ok).unwrap() else { panic!() };
        assert_eq!(f[2], Some(4_294_967_295.0));
        let ns = TimestampNanosecondArray::from(vec![1]);
        assert!(!accepts(ns.data_type(), ColumnType::Timestamp), "a zone-less timestamp is not read");
    }
}
