"""Prints what mat-io's own reader finds in the files the MAT-object tests read, to check the
expected values of Tests/MotusIOTests/MATObjectsTests.swift and MATLABMobileReaderTests.swift
against a second, independent reader:
    /tmp/venv-matio/bin/python matio_values.py      (mat-io 1.0.2, numpy, pandas; see make_sample.py)
Times print as integers: datetimes in ms (or ns) since 1970, durations in their unit.
"""
import os, warnings
import numpy as np
from matio import load_from_mat

warnings.simplefilter("ignore")
here = os.path.dirname(os.path.abspath(__file__))
mats = os.path.join(here, "..", "..", "..", "datasets", "mat-io")

def show_tables(path, names=None):
    for k, v in load_from_mat(path, variable_names=names).items():
        if k.startswith("__"):
            continue
        idx = v.index.values
        print(os.path.basename(path), k, v.index.name, list(v.columns), v.shape, idx.dtype,
              idx.astype(np.int64).tolist()[:4], v.values.tolist()[:2])

show_tables(os.path.join(mats, "test_timetablev8_v7.mat"))
show_tables(os.path.join(mats, "test_timetable_steps_v7.mat"))
show_tables(os.path.join(mats, "test_tables_v7.mat"),
            ["timetable_datetime", "timetable_duration", "timetable_multi_col", "timetable_var_names",
             "timetable_from_sample_rate", "timetable_from_duration", "timetable_from_starttime_duration",
             "timetable_from_starttime_datetime", "timetable_with_attrs", "timetable_empty"])
t = load_from_mat(os.path.join(mats, "test_time_v7.mat"))
for k in ["dt_basic", "dt_tz", "dt_vector", "dt_empty", "dur_s", "dur_hms", "dur_array"]:
    print("test_time_v7.mat", k, t[k].dtype, t[k].shape, t[k].astype(np.int64).tolist())
p = load_from_mat(os.path.join(mats, "test_datetime_precision_v7.mat"))
print("test_datetime_precision_v7.mat dt_subms ns", p["dt_subms"].astype("datetime64[ns]").astype(np.int64).tolist())
show_tables(os.path.join(here, "sensorlog_20260101_120000.mat"))
