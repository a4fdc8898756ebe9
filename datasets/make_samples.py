#!/usr/bin/env python3
"""Rebuild Motus's bundled real sample from recordings that PyPI packages ship.

    python3 -m venv /tmp/venv-samples && /tmp/venv-samples/bin/pip install numpy scipy
    /tmp/venv-samples/bin/python datasets/make_samples.py

It downloads two source distributions with `pip download --no-deps --no-binary :all:`:
  - dispel 0.0.3 (MIT, (c) 2023 Biogen Inc.): an iPhone 7 in a waist belt, CoreMotion streams,
    standing still then walking with U-turns (tests/providers/bdh/_resources/SBT-UTT/igni_sbt_utt.json);
  - mobgap 1.2.0 (Apache-2.0, Mobilise-D consortium): a lower-back IMU with reference initial
    contacts (steps) and walking bouts from the INDIP reference system
    (example_data/data_csv/*/001/*.csv and example_data/data/lab/*/001/data.mat);
and writes them in Motus's native format (see docs/FORMAT.md), unit-converted to SI and to
Motus's sign convention. The native files are *changed* forms of the originals (Apache-2.0
section 4(b)); datasets/README.md says what was changed. One mobgap CSV is also copied
byte-identical, for the generic delimited-reader demo.
"""
import glob, json, os, shutil, subprocess, sys, tarfile, tempfile

import numpy as np
import scipy.io as sio

HERE = os.path.dirname(os.path.abspath(__file__))
G = 9.80665


def num(x):
    return repr(float(x))


def quote(s):
    s = str(s).replace('\\', '\\\\').replace('\n', '\\n').replace('\r', '\\r').replace('"', '""')
    return '"' + s + '"'


class Writer:
    """Writes the native format: #motus,1, @meta, @stream, samples, @label, @event."""

    def __init__(self, path):
        self.f = open(path, 'w', newline='\n')
        self.f.write('#motus,1\n')

    def meta(self, key, value):
        if value is None:
            return
        if key in ('height_m', 'weight_kg', 'age', 'nominal_rate_hz'):
            self.f.write(f'@meta,{key},{num(value)}\n')
        else:
            self.f.write(f'@meta,{key},{quote(value)}\n')

    def stream(self, name, kind, times, values):
        cols = {'acc': 'x_mps2,y_mps2,z_mps2', 'uacc': 'x_mps2,y_mps2,z_mps2', 'grav': 'x_mps2,y_mps2,z_mps2',
                'gyro': 'x_rads,y_rads,z_rads', 'mag': 'x_uT,y_uT,z_uT'}[kind]
        self.f.write(f'@stream,{name},{kind},t_s,{cols}\n')
        for t, v in zip(times, values):
            self.f.write(name + ',' + num(t) + ',' + ','.join(num(x) for x in v) + '\n')

    def label(self, start, end, text):
        self.f.write(f'@label,{num(start)},{num(end)},{quote(text)}\n')

    def event(self, t, kind, detail=''):
        self.f.write(f'@event,{num(t)},{quote(kind)},{quote(detail)}\n')

    def close(self):
        self.f.close()


def fetch(work, name, version):
    subprocess.run([sys.executable, '-m', 'pip', 'download', '--no-deps', '--no-binary', ':all:', '-q',
                    f'{name}=={version}', '-d', work], check=True)
    archive = glob.glob(os.path.join(work, f'{name}-{version}.tar.gz'))[0]
    with tarfile.open(archive) as t:
        t.extractall(work)
    return os.path.join(work, f'{name}-{version}')


def dispel_sample(root):
    src = os.path.join(root, 'tests/providers/bdh/_resources/SBT-UTT/igni_sbt_utt.json')
    d = json.load(open(src))
    dev = d['header']['acquisition_provenance']['source_device']
    out = os.path.join(HERE, 'iphone-belt-stand-then-walk.motus')
    w = Writer(out)
    w.meta('device', f"iPhone 7 ({dev['model_name']}), iOS {dev['os_version']}")
    w.meta('placement', 'belt')
    w.meta('nominal_rate_hz', 50)
    w.meta('source', 'dispel 0.0.3 (PyPI, MIT): tests/providers/bdh/_resources/SBT-UTT/igni_sbt_utt.json')
    w.meta('x.time', 'Unix epoch seconds (the file gives epoch milliseconds)')
    w.meta('x.convention', 'CoreMotion g negated and scaled by 9.80665 to Motus m/s2 (gravity up)')
    w.meta('x.protocol', 'Konectom static balance (sb) then U-turn walking test (ut); belt at the waist')
    levels = d['body']['levels']
    streams = {  # dispel name -> (motus name, kind, scale)
        'raw_accelerometer': ('acc', 'acc', -G),
        'calibrated_accelerometer': ('uacc', 'uacc', -G),
        'gravity': ('grav', 'grav', -G),
        'calibrated_gyroscope': ('gyro', 'gyro', 1.0),
        'calibrated_magnetic_field': ('mag', 'mag', 1.0),
    }
    for key, (name, kind, scale) in streams.items():
        times, values = [], []
        for lv in levels:
            r = lv['raw_data'][key]
            times += [ms / 1000.0 for ms in r['timestamp']]
            values += [(x * scale, y * scale, z * scale) for x, y, z in zip(r['x'], r['y'], r['z'])]
        w.stream(name, kind, times, values)
    for lv in levels:
        tf = lv['effective_time_frame']
        w.label(tf['begin_timestamp'] / 1000.0, tf['end_timestamp'] / 1000.0, lv['configuration']['mode'])
        vi = lv['raw_data']['voice_instructions']
        for t, f in zip(vi['start_timestamp'], vi['file_name']):
            w.event(t / 1000.0, 'voice-instruction', f)
    w.close()
    return out


def mobgap_sample(root, cohort, test, trial, out_name, description, participant='001'):
    """Writes one mobgap lab recording (the CSV's lower-back IMU, the data.mat's INDIP reference)
    to `out_name` (under this folder unless absolute). Returns (the file written, the CSV read)."""
    csv = os.path.join(root, f'example_data/data_csv/{cohort}/{participant}/TimeMeasure1_{test}_{trial}.csv')
    meta = json.load(open(os.path.join(root, 'example_data/data_csv/participant_metadata.json')))[cohort][participant]
    mat = sio.loadmat(os.path.join(root, f'example_data/data/lab/{cohort}/{participant}/data.mat'), squeeze_me=True, struct_as_record=False)
    tr = getattr(getattr(mat['data'].TimeMeasure1, test), trial)
    data = np.loadtxt(csv, delimiter=',', skiprows=1)
    t = data[:, 0] / 100.0
    acc = data[:, 1:4] * G                     # g -> m/s2 (x is vertical, +1 g upright: Motus's sign already)
    gyr = np.deg2rad(data[:, 4:7])             # deg/s -> rad/s
    out = os.path.join(HERE, out_name)
    w = Writer(out)
    w.meta('device', 'McRoberts MoveMonitor+ (MM+)')
    w.meta('placement', 'lower-back')
    w.meta('subject', f'{cohort}/{participant}')
    w.meta('height_m', meta['height_m'])
    w.meta('weight_kg', meta['weight_kg'])
    w.meta('nominal_rate_hz', 100)
    w.meta('source', f'mobgap 1.2.0 (PyPI, Apache-2.0): example_data/data_csv/{cohort}/{participant}/TimeMeasure1_{test}_{trial}.csv '
                     f'and example_data/data/lab/{cohort}/{participant}/data.mat (INDIP reference)')
    w.meta('x.protocol', description)
    w.meta('x.sensor_height_m', str(meta['sensor_height_m']))
    w.meta('x.reference', 'INDIP initial contacts (step events) and walking bouts (label "walk"); steps outside bouts are not referenced')
    w.meta('x.time', 'seconds from the first sample (samples / 100)')
    w.stream('acc', 'acc', t, acc)
    w.stream('gyro', 'gyro', t, gyr)
    bouts = tr.Standards.INDIP.MicroWB
    bouts = [bouts] if not isinstance(bouts, np.ndarray) else list(bouts)
    total_length = 0.0
    for b in bouts:
        w.label(float(b.Start), float(b.End), 'walk')
        total_length += float(b.Length)
        ics = np.atleast_1d(b.InitialContact_Event)
        lrs = np.atleast_1d(b.InitialContact_LeftRight)
        for ic, lr in zip(ics, lrs):
            if np.isfinite(ic):
                w.event(float(ic), 'step', str(lr).lower())
    w.meta('x.reference_distance_m', repr(round(total_length, 4)))
    w.close()
    return out, csv


def main():
    work = tempfile.mkdtemp(prefix='motus-samples-')
    dispel = fetch(work, 'dispel', '0.0.3')
    mobgap = fetch(work, 'mobgap', '1.2.0')
    print(dispel_sample(dispel))
    print(mobgap_sample(mobgap, 'MS', 'Test5', 'Trial1', 'lowback-straight-walk.motus',
                        'Mobilise-D TVS Test5 "Straight Walk Comfortable": still, walk about 4 m, still (participant with MS)')[0])
    out, csv = mobgap_sample(mobgap, 'HA', 'Test11', 'Trial1', 'lowback-daily-activities.motus',
                             'Mobilise-D TVS Test11 "Simulated Daily Activities": walking bouts between sitting and standing (healthy adult)')
    print(out)
    os.makedirs(os.path.join(HERE, 'mobgap'), exist_ok=True)
    shutil.copyfile(os.path.join(mobgap, 'example_data/data_csv/MS/001/TimeMeasure1_Test5_Trial1.csv'),
                    os.path.join(HERE, 'mobgap', 'MS001_TimeMeasure1_Test5_Trial1.csv'))
    os.makedirs(os.path.join(HERE, 'licenses'), exist_ok=True)
    shutil.copyfile(os.path.join(dispel, 'LICENSE'), os.path.join(HERE, 'licenses', 'dispel-LICENSE'))
    shutil.copyfile(os.path.join(mobgap, 'LICENSE'), os.path.join(HERE, 'licenses', 'mobgap-LICENSE'))
    shutil.copyfile(os.path.join(mobgap, 'NOTICE'), os.path.join(HERE, 'licenses', 'mobgap-NOTICE'))
    shutil.rmtree(work)


if __name__ == '__main__':
    main()
