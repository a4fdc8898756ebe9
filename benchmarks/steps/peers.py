"""The peers Motus's step count is compared with (issue #20), each a function from a converted
recording (motus_cli.Recording) to detected step times in seconds.

- `scipy_steps`: the tuned scipy pipeline, with the issue's settings: |a| (gravity included,
  m/s²) resampled to 100 Hz, minus its median, 4th-order Butterworth band-pass 1.0–5.0 Hz run
  forwards and backwards (`sosfiltfilt`, zero phase: offline), `find_peaks` with a distance of
  0.3 s and a prominence of 1.0 × the filtered signal's standard deviation.
- `mobgap_detectors`: mobgap's initial-contact detectors that run on one lower-back sensor
  (HKLeeImproved, Ionescu, ShinImproved), each on the whole recording at 100 Hz, and mobgap's
  full pipeline for healthy walkers (its own gait sequences, then initial contacts in them).
"""

import warnings

import numpy as np
from scipy.signal import butter, find_peaks, sosfiltfilt

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
    gyr_x/y/z (rad/s). mobgap's x points up, as the IPOL lower-back unit's +X does."""
    import pandas as pd

    if rec.gyro is None:
        raise RuntimeError("no gyroscope stream (mobgap's sensor frame needs one)")
    grid, acc = uniform(rec.acc_t, rec.acc)
    _, gyro = uniform(rec.gyro_t, rec.gyro, grid)
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
        from mobgap.pipeline import MobilisedPipelineHealthy
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
        grid, sensor = _mobgap_sensor_frame(rec)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ics = MobilisedPipelineHealthy().safe_run(_Datapoint(sensor, rec.height_m or 1.7)).raw_ic_list_
        return grid[ics["ic"].to_numpy(dtype=int)]

    return [("mobgap HKLeeImproved", detector(IcdHKLeeImproved)),
            ("mobgap Ionescu", detector(IcdIonescu)),
            ("mobgap ShinImproved", detector(IcdShinImproved)),
            ("mobgap pipeline", pipeline)]
