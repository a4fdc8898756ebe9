"""The peers Motus's step count is compared with (issue #20), each a function from a converted
recording (motus_cli.Recording) to detected step times in seconds.

- `scipy_steps`: the tuned scipy pipeline, with the issue's settings: |a| (gravity included,
  m/s²) resampled to 100 Hz, minus its median, 4th-order Butterworth band-pass 1.0–5.0 Hz run
  forwards and backwards (`sosfiltfilt`, zero phase: offline), `find_peaks` with a distance of
  0.3 s and a prominence of 1.0 × the filtered signal's standard deviation.
- `mobgap_detectors`: mobgap's initial-contact detectors that run on one lower-back sensor
  (HKLeeImproved, Ionescu, ShinImproved), each on the whole recording at 100 Hz, and mobgap's
  full pipeline for healthy walkers (its own gait sequences, then initial contacts in them).
- `skdh_steps`: scikit-digital-health's lumbar gait pipeline (`skdh.gait.GaitLumbar`), its
  initial contacts.

And the distances walked, from the walker's height, of the peers that estimate one (IPOL's
20 m course is the reference): `mobgap_pipeline_distance` and `skdh_distance`, each from
(recording, judged spans) to {name: metres}, the first name the method's column.
"""

import warnings

import numpy as np
from scipy.signal import butter, find_peaks, sosfiltfilt

import motus_cli

RATE_HZ = 100.0


def uniform(t, values, grid=None):
    """Values (n, or n × k) sampled at times t, linearly interpolated onto `grid`, by default
    a 100 Hz grid from the first to the last time; returns (grid, values). Rows sharing one
    timestamp (Oxford phones write some twice) are averaged first; gaps (IPOL's lost
    packets) are bridged by the interpolation."""
    t = np.asarray(t, dtype=float)
    values = np.asarray(values, dtype=float)
    unique_t, inverse = np.unique(t, return_inverse=True)  # sorted times, each once
    counts = np.bincount(inverse)
    if values.ndim == 1:
        values = np.bincount(inverse, weights=values) / counts
    else:
        values = np.column_stack([np.bincount(inverse, weights=values[:, k]) / counts for k in range(values.shape[1])])
    if grid is None:
        grid = unique_t[0] + np.arange(int(np.floor((unique_t[-1] - unique_t[0]) * RATE_HZ)) + 1) / RATE_HZ
    if values.ndim == 1:
        return grid, np.interp(grid, unique_t, values)
    return grid, np.column_stack([np.interp(grid, unique_t, values[:, k]) for k in range(values.shape[1])])


# 4th-order Butterworth band-pass, 1.0–5.0 Hz, at 100 Hz (second-order sections).
_BANDPASS = butter(4, [1.0, 5.0], btype="bandpass", fs=RATE_HZ, output="sos")


def scipy_steps(rec):
    """The tuned scipy pipeline of issue #20: peaks of the band-passed |a|."""
    grid, magnitude = uniform(rec.acc_t, np.linalg.norm(rec.acc, axis=1))
    filtered = sosfiltfilt(_BANDPASS, magnitude - np.median(magnitude))
    peaks, _ = find_peaks(filtered, distance=int(round(0.3 * RATE_HZ)), prominence=1.0 * np.std(filtered))
    return grid[peaks]


def mobgap_version():
    """mobgap's version, or None when it cannot be imported."""
    try:
        import mobgap
        from importlib.metadata import version
        return version("mobgap")
    except Exception:
        return None


def _mobgap_sensor_frame(rec):
    """(100 Hz grid, the recording in mobgap's sensor frame as a DataFrame): acc_x/y/z (m/s²) and
    gyr_x/y/z (deg/s, mobgap's unit: its left/right-foot classifier and turn detector read
    them; its initial contacts, cadence, stride length and walking speed read the acceleration
    only). mobgap's x points up, as the IPOL lower-back unit's +X does."""
    import pandas as pd

    if rec.gyro is None:
        raise RuntimeError("no gyroscope stream (mobgap's sensor frame needs one)")
    grid, acc = uniform(rec.acc_t, rec.acc)
    _, gyro = uniform(rec.gyro_t, np.degrees(rec.gyro), grid)
    return grid, pd.DataFrame({"acc_x": acc[:, 0], "acc_y": acc[:, 1], "acc_z": acc[:, 2],
                               "gyr_x": gyro[:, 0], "gyr_y": gyro[:, 1], "gyr_z": gyro[:, 2]})


class _Datapoint:
    """What mobgap's pipeline reads from a data set entry. Height only sets stride lengths
    (Zijlstra, with the lower back at 0.53 × height), never the initial contacts."""

    def __init__(self, data, height_m):
        self.data_ss = data
        self.sampling_rate_hz = RATE_HZ
        self.participant_metadata = {"height_m": height_m, "sensor_height_m": 0.53 * height_m, "cohort": "HA"}
        self.recording_metadata = {"measurement_condition": "laboratory"}
        self.group_label = None


class _LastRecording:
    """`run(rec)`, kept for the last recording it was called with: steps.py asks a pipeline for a
    recording's steps and then for its distance, and the pipeline runs once for both."""

    def __init__(self, run):
        self._run, self._rec, self._result = run, None, None

    def __call__(self, rec):
        if rec is not self._rec:
            result = self._run(rec)
            self._rec, self._result = rec, result
        return self._result


def _seconds_inside(spans, start, end):
    """How many seconds of [start, end] (s) lie inside `spans` (all of it when None)."""
    if spans is None:
        return max(0.0, end - start)
    return sum(max(0.0, min(end, b) - max(start, a)) for a, b in spans)


def _run_mobgap_pipeline(rec):
    """(start of the 100 Hz grid in s, mobgap's healthy pipeline run on the recording). A walker
    of unknown height is taken as 1.7 m: height sets the stride lengths only."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the classifier's unpickling warning (mobgap_detectors)
        from mobgap.pipeline import MobilisedPipelineHealthy
    grid, sensor = _mobgap_sensor_frame(rec)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return grid[0], MobilisedPipelineHealthy().safe_run(_Datapoint(sensor, rec.height_m or 1.7))


_mobgap_pipeline = _LastRecording(_run_mobgap_pipeline)


def mobgap_detectors():
    """[(column title, function rec → step times)] for mobgap's lower-back initial-contact
    detectors, each on the whole recording at 100 Hz in mobgap's sensor frame, renamed to the
    body frame by mobgap's own `to_body_frame`: HKLeeImproved and ShinImproved on the norm of
    the acceleration (their default), Ionescu on the vertical axis; and mobgap's full pipeline
    for healthy walkers (`MobilisedPipelineHealthy`: Iluz gait-sequence detection, then Ionescu's
    initial contacts inside each sequence), whose initial contacts are `raw_ic_list_`. An
    initial contact is a step."""
    with warnings.catch_warnings():
        # Importing the pipeline unpickles mobgap's left/right-foot classifier, saved by an older
        # scikit-learn, which warns; it labels feet only, not how many initial contacts there are.
        warnings.simplefilter("ignore")
        from mobgap.initial_contacts import IcdHKLeeImproved, IcdIonescu, IcdShinImproved
        from mobgap.pipeline import MobilisedPipelineHealthy  # noqa: F401 (a missing one fails here, not mid-run)
        from mobgap.utils.conversions import to_body_frame

    def detector(make):
        def detect(rec):
            grid, sensor = _mobgap_sensor_frame(rec)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ics = make().detect(to_body_frame(sensor), sampling_rate_hz=RATE_HZ).ic_list_
            return grid[ics["ic"].to_numpy(dtype=int)]
        return detect

    def pipeline(rec):
        start, run = _mobgap_pipeline(rec)
        return start + run.raw_ic_list_["ic"].to_numpy(dtype=int) / RATE_HZ

    return [("mobgap HKLeeImproved", detector(IcdHKLeeImproved)),
            ("mobgap Ionescu", detector(IcdIonescu)),
            ("mobgap ShinImproved", detector(IcdShinImproved)),
            ("mobgap pipeline", pipeline)]


def mobgap_pipeline_distance(rec, spans):
    """The distance (m) mobgap's healthy pipeline has the walker cover inside `spans`, from the
    walker's height (the lower back at 0.53 × height), or None when the height is unknown:
    {"mobgap pipeline": Σ over its walking bouts of the bout's walking speed × the seconds of
    the bout inside `spans`; "mobgap pipeline (half its stride lengths)": Σ over the bouts'
    strides of half the stride length × the share of the stride inside `spans`}.

    The first is mobgap's own intended use: walking speed per walking bout is the outcome
    Mobilise-D reports and validates (`per_wb_parameters_`; WsNaive: cadence × stride length,
    per second, averaged over the bout's strides). Its stride lengths are per-second values
    (SlZijlstra: each second's mean step length × 2, Hampel-smoothed) put onto the strides,
    which mobgap says reflect no individual stride; and every initial contact starts a stride
    to the next one of the same foot, each carrying a two-step length, so the strides' lengths
    add up to about twice the distance: half their sum is the cross-check. Both run from a
    bout's first initial contact to its last, one step fewer than the steps taken; a bout
    without a speed adds nothing."""
    if rec.height_m is None:
        return None
    start, run = _mobgap_pipeline(rec)
    by_speed = 0.0
    for wb in run.per_wb_parameters_.itertuples():
        if np.isfinite(wb.walking_speed_mps):
            by_speed += wb.walking_speed_mps * _seconds_inside(spans, start + wb.start / RATE_HZ, start + wb.end / RATE_HZ)
    by_strides = 0.0
    for stride in run.per_stride_parameters_.itertuples():
        a, b = start + stride.start / RATE_HZ, start + stride.end / RATE_HZ
        if np.isfinite(stride.stride_length_m) and b > a:
            by_strides += stride.stride_length_m / 2 * _seconds_inside(spans, a, b) / (b - a)
    return {"mobgap pipeline": by_speed, "mobgap pipeline (half its stride lengths)": by_strides}


def skdh_version():
    """scikit-digital-health's version, or None when it cannot be imported."""
    try:
        import skdh
        from importlib.metadata import version
        return version("scikit-digital-health")
    except Exception:
        return None


# skdh's column in the table.
SKDH = "skdh GaitLumbar"

# skdh reads acceleration in g, and turns the vertical excursion back into metres with 9.81 m/s².
_SKDH_G = 9.81


def _run_skdh(rec):
    """skdh's `GaitLumbar` on the recording's acceleration at 100 Hz (in g) with the walker's
    height (leg length 0.53 × height, skdh's default; no spatial figures when it is unknown):
    its per-step results, a dict of arrays. The whole recording is given as one gait bout
    (`gait_pred=True`, GaitLumbar's default): GaitLumbar finds gait events in the bouts it is
    given, and skdh's own gait classifier (`PredictGaitLumbarLgbm`) marks gait in 3 s windows
    for bouts of at least 8 s, which leaves little of a 20 m trial. That suits short recordings
    that are mostly walking, such as IPOL's trials, and not long ones with other activities."""
    from skdh.gait import GaitLumbar

    grid, acc = uniform(rec.acc_t, rec.acc)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpy's empty-slice warnings on steps it leaves without a value
        return GaitLumbar(day_window=None).predict(time=grid, accel=acc / _SKDH_G, fs=RATE_HZ,
                                                   height=rec.height_m, gait_pred=True)


_skdh_gait = _LastRecording(_run_skdh)


def skdh_detectors():
    """[(column title, function rec → step times)] for skdh's lumbar gait pipeline (`skdh_steps`);
    raises ImportError when skdh is not installed."""
    from skdh.gait import GaitLumbar  # noqa: F401 (a missing one fails here, not mid-run)

    return [(SKDH, skdh_steps)]


def skdh_steps(rec):
    """skdh's initial contacts (s), an initial contact a step: those it keeps after its stride
    checks (loading time, stance time, stride time), since it reports gait metrics, not a step
    count."""
    return np.asarray(_skdh_gait(rec).get("IC Timestamp", []), dtype=float)


def skdh_distance(rec, spans):
    """The distance (m) skdh has the walker cover inside `spans`, from the walker's height, or
    None when the height is unknown: {"skdh GaitLumbar": Σ of its `step length` over the steps
    whose initial contact lies inside `spans`; "skdh GaitLumbar (model 1)": the same with `step
    length m1`}. skdh's step i runs from initial contact i to the next (its stride is two
    steps, so its stride lengths would count each step twice); `step length` is its default
    (model 2, a double inverted pendulum) and `step length m1` the single inverted pendulum of
    Zijlstra & Hof (2003), the model mobgap's stride lengths come from, without mobgap's scale
    factor. A contact without a step length adds nothing: a bout's last, which starts no step,
    and one whose next contact is not its step's continuation (where its checks dropped
    contacts)."""
    if rec.height_m is None:
        return None
    gait = _skdh_gait(rec)
    inside = motus_cli.inside(spans, gait.get("IC Timestamp", []))
    out = {}
    for name, key in ((SKDH, "step length"), (SKDH + " (model 1)", "step length m1")):
        lengths = np.asarray(gait.get(key, np.zeros(len(inside))), dtype=float)
        out[name] = float(np.nansum(lengths[inside]))
    return out
