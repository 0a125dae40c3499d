"""Properties of configurations: JSON round trip, value semantics, host consistency, views."""

from __future__ import annotations

import json

from config_strategies import HALF, composites, configs
from hypothesis import given

import targetlang as tl
from targetlang import CompilationConfig, PackagedView


@HALF
@given(configs())
def test_json_round_trip(config: CompilationConfig) -> None:
    document = config.to_json()
    again = CompilationConfig.from_json(json.loads(json.dumps(document)))
    assert again == config and hash(again) == hash(config)
    assert again.to_json() == document


@HALF
@given(composites())
def test_composite_json_round_trip(config: CompilationConfig) -> None:
    again = CompilationConfig.from_json(config.to_json())
    assert again == config
    for name, group in config.executors.items():
        assert again.executors[name] == group
        assert CompilationConfig.from_json(group.to_json()) == group


@HALF
@given(configs())
def test_every_target_carries_the_target_host(config: CompilationConfig) -> None:
    for target in config.targets:
        assert target.host == config.target_host
    if config.target_host is not None:
        assert config.target_host.host is None


@HALF
@given(configs())
def test_packaged_view_keeps_the_configuration(config: CompilationConfig) -> None:
    try:
        view = PackagedView.from_config(config)
    except tl.ViewError:
        # Only flow-config, a missing host no device could give, or a runtime that TVM's
        # default (cpp) cannot be for the executor keep it from a view.
        assert config.flow_config or (config.target_host is None and not any(
            t.kind in ("llvm", "c") for t in config.targets)) or (
            config.runtime is None and config.executor is not None
            and config.executor.attrs.get("unpacked-api") is True)
        return
    back = view.to_config()
    assert [t.with_host(None) for t in back.targets] == \
        [t.with_host(None) for t in config.targets]
    assert (back.executor, back.runtime) == (view.executor, view.runtime)
    if config.target_host is not None:
        assert back.target_host == config.target_host
