import Foundation
import Testing
@testable import MotusIO
import MotusCore

/// MATLAB objects (MCOS: timetable, datetime, duration) in files written by MATLAB itself:
/// the test files of the PyPI package mat-io 1.0.2 (`datasets/mat-io/`, BSD-3-Clause), made
/// by the generator scripts named below. Each expected value is what the generator asks
/// MATLAB for; mat-io's own reader gives the same numbers (`Tests/HandWritten/matlab-mobile/matio_values.py`
/// prints them).
@Suite("MATLAB objects in MAT-files")
struct MATObjectsTests {
    static let folder = TestFiles.packageRoot + "/datasets/mat-io/"
    /// 2023-01-01 00:00 as milliseconds since 1970 (no time zone: the clock reading as if UTC).
    static let jan2023 = 1_672_531_200_000.0
    static let day = 86_400_000.0

    /// test_timetable_v8.m: `timetable(datetime(2023,1,1) + days(0:2))', [1;2;3])`, saved by
    /// a MATLAB that writes timetable version 8, and the same with a 100-character variable name.
    @Test("a timetable with datetime row times (MATLAB, timetable v8)")
    func timetableV8() throws {
        let f = try MATFile.read(path: Self.folder + "test_timetablev8_v7.mat")
        #expect(f.names == ["timetable_v8", "timetable_v8_long_varname"])
        #expect(f.skipped.isEmpty)
        let t = try f.timetable("timetable_v8")
        #expect(t.rowCount == 3 && t.variableNames == ["data1"] && t.rowTimesName == "Time")
        #expect(t.variable("data1")?.values == [1, 2, 3])
        guard case .datetime(let d) = t.rowTimes else { Issue.record("expected datetime row times"); return }
        #expect(d.milliseconds == [Self.jan2023, Self.jan2023 + Self.day, Self.jan2023 + 2 * Self.day])
        #expect(d.timeZone == "" && t.regularity == nil)
        #expect(t.rowTimes.seconds == [1_672_531_200, 1_672_617_600, 1_672_704_000])
        let long = try f.timetable("timetable_v8_long_varname")
        #expect(long.variableNames == [String(repeating: "A", count: 100)] && long.variables[0].values == [1, 2, 3])
    }

    /// test_tables_gen.m: timetables with datetime, duration and implied row times.
    @Test("timetables with datetime, duration and implied row times (MATLAB)")
    func tables() throws {
        let f = try MATFile.read(path: Self.folder + "test_tables_v7.mat")
        let dt = try f.timetable("timetable_datetime")
        #expect(dt.rowTimes.seconds == [1_672_531_200, 1_672_617_600, 1_672_704_000] && dt.variables[0].values == [1, 2, 3])
        let du = try f.timetable("timetable_duration")
        #expect(du.rowTimes == .duration(MATDuration(milliseconds: [10_000, 20_000, 30_000], dimensions: [3, 1], format: "s")))
        let multi = try f.timetable("timetable_multi_col")
        #expect(multi.variableNames == ["data2"] && multi.variables[0].dimensions == [3, 2] && multi.variables[0].values == [1, 2, 3, 4, 5, 6])
        #expect(try f.timetable("timetable_var_names").variableNames == ["Pressure"])
        // SampleRate 10000 → rows at 0, 0.1, 0.2 ms.
        let rate = try f.timetable("timetable_from_sample_rate")
        #expect(rate.regularity == .sampleRate(10_000))
        #expect(rate.rowTimes.seconds == [0, 0.0001, 0.0002])
        #expect(try f.timetable("timetable_from_duration").rowTimes.seconds == [0, 1, 2])
        #expect(try f.timetable("timetable_from_starttime_duration").rowTimes.seconds == [10, 11, 12])
        let start = try f.timetable("timetable_from_starttime_datetime")
        #expect(start.rowTimes.seconds == [1_577_836_800, 1_577_836_801, 1_577_836_802] && start.regularity == .timeStep(1))
        let attrs = try f.timetable("timetable_with_attrs")
        #expect(attrs.rowTimesName == "Date" && attrs.units == ["m/s"] && attrs.variables[0].values == [1, 2, 3])
        let empty = try f.timetable("timetable_empty")
        #expect(empty.rowCount == 0 && empty.variableNames.isEmpty && empty.rowTimes.count == 0)
        // A calendar step (calmonths(3)) is refused, saying why.
        let e = inputError { _ = try f.timetable("timetable_from_starttime_calendarDuration") }
        #expect(e?.found == "a calendarDuration time step")
        #expect(e?.expected.hasSuffix("calendar steps (months, days) are not read in variable 'timetable_from_starttime_calendarDuration.rowTimes'") == true)
        // A table is an object too, and not a timetable.
        #expect(f["table_numeric"]?.className == "table")
        #expect(inputError { _ = try f.timetable("table_numeric") }?.expected == "a MATLAB timetable in variable 'table_numeric'")
    }

    /// test_timetable_steps_gen.m: timetables made with TimeStep or SampleRate.
    @Test("timetables with a time step or a sample rate (MATLAB)")
    func steps() throws {
        let f = try MATFile.read(path: Self.folder + "test_timetable_steps_v7.mat")
        let t0 = 1_577_836_800.0   // 2020-01-01 00:00
        func close(_ a: [Double], _ b: [Double]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-6 } }
        #expect(close(try f.timetable("timetable_step_millis").rowTimes.seconds, [t0 + 0.25, t0 + 0.26, t0 + 0.27]))
        #expect(close(try f.timetable("timetable_step_start_offset").rowTimes.seconds, [t0 + 0.25, t0 + 1.25, t0 + 2.25]))
        // years(1) is a fixed 365.2425 days.
        #expect(close(try f.timetable("timetable_step_years").rowTimes.seconds, [t0, t0 + 31_556_952, t0 + 2 * 31_556_952]))
        let rate = try f.timetable("timetable_sample_rate")
        #expect(rate.regularity == .sampleRate(3) && close(rate.rowTimes.seconds, [0, 1.0 / 3, 2.0 / 3, 1]))
        #expect(rate.variable("data1")?.values == [1, 2, 3, 4])
        for name in ["timetable_step_caldays", "timetable_step_calmonths"] {
            #expect(inputError { _ = try f.timetable(name) }?.found == "a calendarDuration time step")
        }
    }

    /// test_times_gen.m and test_datetime_precision_gen.m: datetime and duration variables.
    @Test("datetime and duration variables (MATLAB)")
    func times() throws {
        let f = try MATFile.read(path: Self.folder + "test_time_v7.mat")
        #expect(try f.datetime("dt_basic").milliseconds == [1_743_508_800_000])          // 2025-04-01 12:00
        let tz = try f.datetime("dt_tz")
        #expect(tz.timeZone == "America/New_York" && tz.milliseconds == [1_743_523_200_000])  // 12:00 EDT = 16:00 UTC
        let v = try f.datetime("dt_vector")
        #expect(v.dimensions == [1, 6] && v.milliseconds == (0..<6).map { 1_743_465_600_000 + Double($0) * Self.day })
        #expect(try f.datetime("dt_empty").milliseconds.isEmpty)
        #expect(try f.datetime("dt_fmt").format == "yyyy-MM-dd HH:mm:ss")
        #expect(try f.duration("dur_s") == MATDuration(milliseconds: [5000], dimensions: [1, 1], format: "s"))
        #expect(try f.duration("dur_hms").milliseconds == [3_723_000])
        let a = try f.duration("dur_array")
        #expect(a.dimensions == [2, 3] && a.milliseconds == [10_000, 40_000, 20_000, 50_000, 30_000, 60_000])
        #expect(f["cdur_days"]?.className == "calendarDuration")
        #expect(inputError { _ = try f.duration("cdur_days") }?.found == "calendarDuration")
        // Sub-millisecond times: the imaginary part holds the remainder.
        let p = try MATFile.read(path: Self.folder + "test_datetime_precision_v7.mat").datetime("dt_subms")
        #expect(p.remainderMilliseconds.count == 1 && p.remainderMilliseconds[0] != 0)
        let ns = (p.milliseconds[0] - 1_704_110_400_000 + p.remainderMilliseconds[0]) * 1e6   // from 2024-01-01 12:00
        #expect(abs(ns - 123_456_700) < 1)
    }
}
