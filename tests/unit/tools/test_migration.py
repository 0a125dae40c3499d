"""Historical dialects, detect_dialect, migrate and migrate_config.

The golden file is recorded from TVM 0.21 and TVM 0.27 by
``scripts/record_migration_goldens.py`` and replayed here without TVM.
"""

from __future__ import annotations

import json
import subprocess
import warnings
from typing import Any

import pytest
from conftest import ORACLE_DIR, ORACLE_QUERY, ORACLE_SKIP, TESTS, TOPHUB
from hypothesis import given, settings
from hypothesis import strategies as st

import targetlang as tl
from targetlang.strategies import malformed_strings, target_strings, targets

GOLDEN = TESTS / "data" / "migration" / "golden.jsonl"
ROWS = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
MACHINE = {"llvm": ("mtriple",), "cuda": ("arch",), "nvptx": ("mcpu",), "rocm": ("mcpu",)}


def quiet_migrate(*args: Any, **kwargs: Any) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tl.MigrationWarning)
        return tl.migrate(*args, **kwargs)


def comparable(export: dict[str, Any], migrated: dict[str, Any], new: dict[str, Any],
               old_kinds: Any) -> dict[str, Any]:
    """An export without what may differ for the same target: feature.* keys, values TVM
    detected from the machine (not in ``migrated``), and the defaults that only the newer
    release defines (taken from ``new``, the newer export)."""
    kind = export.get("kind")
    out = {k: v for k, v in export.items() if not k.startswith("feature.")}
    for key in MACHINE.get(str(kind), ()):
        if key not in migrated:
            out.pop(key, None)
    if kind in old_kinds:
        for key in list(out):
            if key not in old_kinds[kind].attrs and key not in ("kind", "tag", "keys") \
                    and out[key] == tl.kinds("tvm-0.27")[kind].defaults.get(key, object()):
                out.pop(key)
    if isinstance(out.get("host"), dict):
        out["host"] = comparable(out["host"], migrated.get("host", {}), new.get("host", {}),
                                 old_kinds)
    if isinstance(out.get("devices"), list):
        out["devices"] = [comparable(d, m, n, old_kinds) for d, m, n in
                          zip(out["devices"], migrated.get("devices", []), new.get("devices", []))]
    return out


def same_target(old: dict[str, Any], new: dict[str, Any], migrated: dict[str, Any]) -> bool:
    kinds = tl.kinds("tvm-0.21")
    return comparable(old, migrated, new, kinds) == comparable(new, migrated, new, kinds)


@pytest.mark.parametrize("row", ROWS, ids=[r["input"][:60] for r in ROWS])
def test_golden_migration(row: dict[str, Any]) -> None:
    assert tl.detect_dialect(row["input"]) == row["dialect"]
    assert quiet_migrate(row["input"]) == row["migrated"]
    assert row["tvm027"]["ok"], row["tvm027"]
    if "error" in row["tvm021"]:
        # an older dialect's option TVM 0.21 refused (-system-lib, -link-params, -executor):
        # the migration reads it in its own dialect, so 0.21 has no answer to compare
        assert row["dialect"] != "tvm-0.21" and tl.detect_dialect(row["input"]) != "tvm-0.21"
    else:
        assert same_target(row["tvm021"], row["tvm027"]["export"], row["migrated"])


def test_every_tophub_target_is_in_the_golden_file() -> None:
    corpus = (TOPHUB / "tophub-targets.txt").read_text(encoding="utf-8").split("\n")
    inputs = {r["input"] for r in ROWS}
    assert {t for t in corpus if t} <= inputs
    assert sum(1 for r in ROWS if r["dialect"] == "tvm-0.6" and r["input"] in corpus) == 12


def test_dialects_lists_the_releases() -> None:
    names = tl.dialects()
    for name in ("tvm-0.6", "tvm-0.8", "tvm-0.21", "tvm-0.22", "tvm-0.23", "tvm-0.27", "collage"):
        assert name in names and names[name]


@pytest.mark.parametrize(("text", "dialect"), [
    ("llvm", "tvm-0.27"),
    ('{"kind": "opencl", "feature.x": 1}', "tvm-0.27"),
    ("nvidia/jetson-nano", "tvm-0.27"),
    ("nvidia/gtx1080ti", "tvm-0.23"),
    ("cuda -arch=sm_80", "tvm-0.23"),
    ("hybrid", "tvm-0.21"),
    ("nvidia/geforce-rtx-5060-ti", "tvm-0.27"),
    ("llvm -link-params=1", "tvm-0.9"),
    ("c -executor=aot", "tvm-0.9"),
    ("llvm -device=arm_cpu -target=aarch64-linux-gnu", "tvm-0.6"),
])
def test_detect_dialect(text: str, dialect: str) -> None:
    assert tl.detect_dialect(text) == dialect


def test_error_detect_dialect_names_the_tvm_021_error() -> None:
    with pytest.raises(tl.UnknownAttributeError, match="arhc"):
        tl.detect_dialect("cuda -arhc=sm_80")


def test_tvm_06_reads_target_as_mtriple_and_keys_in_create_target_order() -> None:
    t = tl.parse("llvm -device=arm_cpu -target=aarch64-linux-gnu -mattr=+neon", dialect="tvm-0.6")
    assert t.attrs["mtriple"] == "aarch64-linux-gnu" and t.keys == ("arm_cpu", "cpu")
    vta = tl.parse("ext_dev -device=vta -keys=cpu", dialect="tvm-0.6")
    assert vta.keys == ("vta", "cpu")  # 0.21 reads ("cpu", "vta")
    intel = tl.parse("opencl -device=intel_graphics", dialect="tvm-0.6")
    assert intel.attrs["thread_warp_size"] == 16


@pytest.mark.parametrize(("text", "error"), [
    ("llvm -mcpu cortex-a72", tl.TargetSyntaxError),
    ("cuda -max_num_threads=512", tl.UnknownAttributeError),
    ("cuda -target=x", tl.UnknownAttributeError),
    ("llvm -mtriple=a -target=b", tl.DuplicateAttributeError),
    ("nvidia/tesla-k80", tl.UnknownKindError),
])
def test_error_tvm_06_refuses_what_it_did_not_read(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        tl.parse(text, dialect="tvm-0.6")


def test_tvm_022_and_023_differ_from_021_as_git_says() -> None:
    assert "hybrid" in tl.kinds("tvm-0.21") and "hybrid" not in tl.kinds("tvm-0.22")
    assert "texture_depth_limit" not in tl.kinds("tvm-0.22")["opencl"].attrs
    assert tl.parse("opencl", dialect="tvm-0.23").attrs["texture_depth_limit"] == 2048
    assert "nvidia/geforce-rtx-5060-ti" in tl.tags("tvm-0.22")


def test_tvm_08_default_keys_follow_user_keys_and_moved_options_exist() -> None:
    t = tl.parse("cuda -keys=gpu -system-lib", dialect="tvm-0.8")
    assert t.keys == ("gpu", "cuda") and t.attrs["system-lib"] is True
    assert tl.parse("llvm", dialect="tvm-0.8").attrs["link-params"] is False
    assert tl.kinds("tvm-0.8")["hexagon"].device_type == 14  # TVM 0.8's own kDLHexagon


def test_error_tvm_027_refuses_legacy_text() -> None:
    with pytest.raises(tl.TargetSyntaxError, match="migrate"):
        tl.parse("llvm -mcpu=x", dialect="tvm-0.27")
    with pytest.raises(tl.TargetSyntaxError):
        tl.from_json({"kind": "llvm", "host": "llvm -mcpu=x"}, dialect="tvm-0.27")


def test_tvm_027_reads_its_own_export_with_features() -> None:
    export = {"kind": "llvm", "tag": "", "keys": ["arm_cpu", "cpu"], "feature.is_aarch64": True,
              "mtriple": "aarch64-linux-gnu"}
    t = tl.from_json(export, dialect="tvm-0.27")
    assert t.keys == ("arm_cpu", "cpu") and t.features["has_asimd"] is True
    # As TVM 0.24+ export(): the parser's features as feature.* keys; reading it back is
    # the same target, and migrate() leaves the derived keys to the release.
    assert t.to_json()["feature.is_aarch64"] is True and t.to_json()["feature.has_asimd"] is True
    assert tl.from_json(t.to_json(), dialect="tvm-0.27") == t
    assert not [k for k in tl.migrate(export) if k.startswith("feature.")]
    # A feature.* key the parser does not derive is kept as given (TVM's TargetGetFeature).
    kept = tl.from_json({"kind": "c", "feature.mine": [1, {"a": 2}]}, dialect="tvm-0.27")
    assert kept.features["mine"] == [1, {"a": 2}]
    assert kept.to_json()["feature.mine"] == [1, {"a": 2}]
    assert set(tl.kinds("tvm-0.27")) >= {"cuda_host", "trn"} and "hybrid" not in tl.kinds("tvm-0.27")


def test_migrate_fills_the_newer_defaults_and_expands_tags() -> None:
    out = quiet_migrate("opencl -device=mali")
    assert out["texture_depth_limit"] == 2048 and out["keys"] == ["mali", "opencl", "gpu"]
    assert quiet_migrate("nvidia/jetson-nano")["arch"] == "sm_53"


def test_migrate_leaves_machine_values_unless_an_environment_is_given() -> None:
    assert "mtriple" not in tl.migrate("llvm -mcpu=skylake-avx512 -opt-level=3")
    assert "arch" not in tl.migrate("cuda -model=v100")
    env = tl.Environment.no_gpu()
    assert tl.migrate("cuda -model=v100", environment=env)["arch"] == "sm_50"


def test_migrate_warns_about_moved_options() -> None:
    with pytest.warns(tl.MigrationWarning, match="link-params=1.*migrate_config"):
        out = tl.migrate("llvm -link-params=1 -mcpu=skylake")
    assert out == {"kind": "llvm", "tag": "", "keys": ["cpu"], "mcpu": "skylake"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tl.migrate("llvm -mcpu=skylake", source_dialect="tvm-0.8")  # defaults: no warning


def test_migrate_config_carries_executor_and_runtime() -> None:
    config = tl.migrate_config(
        "c -executor=aot -interface-api=c -unpacked-api=1 -runtime=c -system-lib -link-params=1")
    assert config.executor == tl.Executor("aot", {"interface-api": "c", "unpacked-api": True,
                                                  "link-params": True})
    assert config.runtime == tl.Runtime("crt", {"system-lib": True})
    assert config.targets[0].to_json() == {"kind": "c", "tag": "", "keys": ["cpu"]}
    plain = tl.migrate_config("cuda -arch=sm_80 -host=llvm")
    assert plain.executor is None and plain.runtime is None and plain.target_host is not None
    graph = tl.migrate_config("llvm -system-lib -link-params=1", source_dialect="tvm-0.8")
    assert graph.executor == tl.Executor("graph", {"link-params": True})
    assert graph.runtime == tl.Runtime("cpp", {"system-lib": True})


def test_migrate_config_warns_about_what_the_executor_cannot_take() -> None:
    with pytest.warns(tl.MigrationWarning, match="graph executor has no 'unpacked-api'"):
        config = tl.migrate_config("llvm -unpacked-api=1", source_dialect="tvm-0.8")
    assert config.executor == tl.Executor("graph")


def test_error_migrate_a_kind_that_is_gone() -> None:
    with pytest.raises(tl.MigrationError, match="'hybrid' does not exist in tvm-0.27"):
        tl.migrate("hybrid")
    with pytest.raises(ValueError, match="unknown dialect"):
        tl.migrate("llvm", target_dialect="tvm-9")


def test_migrate_to_tvm_021_from_tvm_06_is_the_autotvm_rewrite() -> None:
    text = "llvm -device=arm_cpu -model=pynq -target=armv7a-linux-eabi -mattr=+neon"
    rewritten = tl.parse(text.replace("-target", "-mtriple"))
    assert tl.migrate(text, target_dialect="tvm-0.21") == rewritten.to_json()


def test_migrate_accepts_targets_and_dicts() -> None:
    t = tl.parse("cuda -arch=sm_80")
    assert tl.migrate(t) == tl.migrate(t.to_json()) == tl.migrate("cuda -arch=sm_80")


@settings(max_examples=60)
@given(targets(kinds=["llvm", "cuda", "opencl", "rocm", "vulkan", "c", "composite", "metal"]))
def test_property_migrate_is_accepted_by_tvm_027_and_idempotent(target: tl.Target) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tl.MigrationWarning)
        try:
            out = tl.migrate(target)
        except tl.MigrationError:
            return
        assert _without_features(tl.from_json(out, dialect="tvm-0.27").to_json()) == out
        assert tl.migrate(out, source_dialect="tvm-0.27") == out
        assert tl.migrate(target, target_dialect="tvm-0.21") == target.to_json()


@pytest.mark.parametrize("dialect", ["tvm-0.6", "tvm-0.8", "tvm-0.23", "tvm-0.27"])
@settings(max_examples=40)
@given(data=st.data())
def test_property_round_trip_in_every_release(dialect: str, data: st.DataObject) -> None:
    target = data.draw(targets(dialect=dialect, max_host_depth=1))
    assert tl.parse(target.to_string(), dialect=dialect) == target
    assert tl.from_json(target.to_json(), dialect=dialect) == target


@pytest.mark.oracle
def test_live_tvm_027_accepts_migrated_tophub_targets() -> None:
    python = ORACLE_DIR / "bin" / "tvm027-python"
    if not python.exists():
        pytest.skip(ORACLE_SKIP.replace("tvm021-python", "tvm027-python"))
    lines = [json.dumps(r["migrated"]) for r in ROWS]
    done = subprocess.run([str(python), str(ORACLE_QUERY), "--mode", "accept"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=600, check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert all(a["ok"] for a in answers)


@settings(max_examples=150)
@given(st.one_of(st.text(max_size=40), malformed_strings(), target_strings()))
def test_property_any_text_detects_and_migrates_or_raises_target_error(text: str) -> None:
    try:
        dialect = tl.detect_dialect(text)
    except tl.TargetError:
        return
    assert tl.parse(text, dialect=dialect) is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tl.MigrationWarning)
        try:
            out = tl.migrate(text)
        except tl.TargetError:
            return
    assert _without_features(tl.from_json(out, dialect="tvm-0.27").to_json()) == out


def _without_features(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_features(v) for k, v in value.items() if not k.startswith("feature.")}
    if isinstance(value, list):
        return [_without_features(v) for v in value]
    return value


@pytest.mark.oracle
def test_live_tvm_027_reads_targetjson_as_the_tvm_027_dialect() -> None:
    python = ORACLE_DIR / "bin" / "tvm027-python"
    if not python.exists():
        pytest.skip(ORACLE_SKIP.replace("tvm021-python", "tvm027-python"))
    env = tl.Environment(system_triple="x86_64-conda-linux-gnu", cuda_arch="sm_50",
                         rocm_arch="gfx900", rocm_api_version=305)  # the 0.27 wheel's LLVM
    samples: list[dict[str, Any]] = []

    @settings(max_examples=300, derandomize=True)
    @given(targets(dialect="tvm-0.27", max_host_depth=1))
    def collect(target: tl.Target) -> None:
        samples.append(target.to_json())

    collect()
    samples += [{"kind": "webgpu", "supports_subgroups": True},
                {"kind": "webgpu", "thread_warp_size": 4}]
    done = subprocess.run([str(python), str(ORACLE_QUERY), "--mode", "accept"],
                          input="".join(json.dumps(s) + "\n" for s in samples),
                          capture_output=True, text=True, timeout=600, check=True)
    for sample, line in zip(samples, done.stdout.split("\n")):
        answer = json.loads(line)
        if not answer["ok"]:
            with pytest.raises(tl.TargetError):
                tl.from_json(sample, dialect="tvm-0.27", environment=env)
            continue
        ours = tl.from_json(sample, dialect="tvm-0.27", environment=env).to_json()
        assert ours == answer["export"], sample  # feature.* keys included


def test_migrate_reads_each_level_of_a_host_chain_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deriving keys reads one level, not its whole host chain (that was quadratic in depth;
    found by the tools fuzz target)."""
    import targetlang.migration as migration
    from targetlang.target import Target

    depth = 90  # within the nesting limit (100)
    text = '{"kind": "llvm", "host": ' * depth + '"llvm"' + "}" * depth
    read: list[int] = []
    real = migration.from_json

    def counting(config: dict[str, object], **kwargs: object) -> Target:
        level, host = 0, config.get("host")
        while isinstance(host, dict):
            level, host = level + 1, host.get("host")
        read.append(level)
        return real(config, **kwargs)

    monkeypatch.setattr(migration, "from_json", counting)
    migrated = tl.migrate(text, target_dialect="tvm-0.27")
    assert migrated["host"]["kind"] == "llvm"
    assert sum(read) <= 2 * depth, f"{sum(read)} nested levels read for a chain of {depth}"
