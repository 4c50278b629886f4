//! The calendar: the civil date (UTC, proleptic Gregorian) of a Unix time. The one place the
//! house turns milliseconds into a date; the PGN's `Date` tag, the rating chart's axis, a
//! game's thread name and the console's moments all read it.

/// A civil date, UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CivilDate {
    /// The year (negative before year 1, which never happens here).
    pub year: i64,
    /// The month, 1–12.
    pub month: u32,
    /// The day of the month, 1–31.
    pub day: u32,
}

impl CivilDate {
    /// The date of the Unix time `unix_ms` (milliseconds since 1970-01-01 00:00 UTC).
    pub fn of_unix_ms(unix_ms: i64) -> CivilDate {
        CivilDate::of_days(unix_ms.div_euclid(DAY_MS))
    }

    /// The date `days` days after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    pub fn of_days(days: i64) -> CivilDate {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        CivilDate {
            year: yoe + era * 400 + i64::from(month <= 2),
            month,
            day,
        }
    }
}

/// ISO 8601's form, `2030-06-08`: the rating chart's axis, the console's dates.
impl std::fmt::Display for CivilDate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// Milliseconds in a day.
const DAY_MS: i64 = 86_400_000;

#[cfg(test)]
mod tests {
    use super::*;

    fn ymd(d: CivilDate) -> (i64, u32, u32) {
        (d.year, d.month, d.day)
    }

    #[test]
    fn civil_dates() {
        assert_eq!(ymd(CivilDate::of_days(0)), (1970, 1, 1));
        assert_eq!(ymd(CivilDate::of_days(19_723)), (2024, 1, 1));
        assert_eq!(ymd(CivilDate::of_days(20_513)), (2026, 3, 1));
        assert_eq!(ymd(CivilDate::of_days(-1)), (1969, 12, 31));
        assert_eq!(ymd(CivilDate::of_unix_ms(951_782_400_000)), (2000, 2, 29));
        assert_eq!(
            ymd(CivilDate::of_unix_ms(1_796_000_000_000)),
            (2026, 11, 30)
        );
        assert_eq!(ymd(CivilDate::of_unix_ms(-1)), (1969, 12, 31));
        assert_eq!(CivilDate::of_days(0).to_string(), "1970-01-01");
    }
}
