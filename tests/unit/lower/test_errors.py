"""Errors: the taxonomy, offsets into the outermost source, caret rendering, did-you-mean."""

from __future__ import annotations

import pickle

import pytest

import targetlang as tl


def _error(text: str) -> tl.TargetError:
    with pytest.raises(tl.TargetError) as info:
        tl.parse(text)
    return info.value


@pytest.mark.parametrize(("text", "cls", "offset"), [
    ("", tl.TargetSyntaxError, 0),
    ("   ", tl.TargetSyntaxError, 3),
    ("llvm -mcpu='unclosed", tl.TargetSyntaxError, 11),
    ("llvm -", tl.TargetSyntaxError, 5),
    ("llvm -=x", tl.TargetSyntaxError, 6),
    ("cuda -arch=", tl.TargetSyntaxError, 11),
    ("llvm foo", tl.TargetSyntaxError, 5),
    ("nosuchkind -a=1", tl.UnknownKindError, 0),
    ("nvidia/jetson-nano -arch=sm_80", tl.UnknownKindError, 0),
    ("cuda -no_such_attr=1", tl.UnknownAttributeError, 6),
    ("llvm -mcpu=a -mcpu=b", tl.DuplicateAttributeError, 14),
    ("llvm -kind=x", tl.DuplicateAttributeError, 6),
    ("llvm -opt-level=x3", tl.AttributeTypeError, 16),
    ("cuda -arch=compute_80", tl.TargetValueError, 11),
    ("rocm -mtriple=x", tl.TargetValueError, 14),
    ("cuda -host=' '", tl.TargetSyntaxError, 13),
    ("cuda -host='lvm -mtriple=aarch64-linux-gnu'", tl.UnknownKindError, 12),
    ("composite -devices=cuda,lvm", tl.UnknownKindError, 24),
    ("llvm -libs=a,\\'b,c", tl.TargetSyntaxError, 14),
    ("cuda -host='cuda -arch=compute_80'", tl.TargetValueError, 23),
    ("{bad", tl.TargetSyntaxError, 1),
    # TVM looks the kind (the first word) up before it reads any option; text is JSON only
    # with "{" first, so white space before it makes legacy text of kind '{"kind":'.
    (' {"kind": "llvm"}', tl.UnknownKindError, 1),
    ('\t{"kind": "llvm"}', tl.UnknownKindError, 0),
    ("nosuchkind x", tl.UnknownKindError, 0),
    ("-mcpu=a llvm", tl.UnknownKindError, 0),
    ("nosuchkind -a='x", tl.TargetSyntaxError, 14),  # the words do not split: no kind yet
    ('{"kind": "llvm"}\x0c', tl.TargetSyntaxError, 16),  # json.loads: extra data
])
def test_error_class_and_offset(text: str, cls: type[tl.TargetError], offset: int) -> None:
    err = _error(text)
    assert type(err) is cls
    assert err.source == text
    assert err.offset == offset
    assert 0 <= err.offset <= len(text)


def test_error_rendering_unknown_attribute() -> None:
    assert str(_error("cuda -arhc=sm_80")) == (
        "unknown attribute 'arhc' for target kind 'cuda' (did you mean 'arch'?)\n"
        "    cuda -arhc=sm_80\n"
        "          ^")


def test_error_rendering_at_end() -> None:
    assert str(_error("cuda -arch=")) == (
        "empty value for attribute 'arch'\n"
        "    cuda -arch=\n"
        "               ^")


def test_error_rendering_nested_host_points_into_outer_text() -> None:
    assert str(_error("cuda -host='lvm -mtriple=aarch64-linux-gnu'")) == (
        "unknown target kind 'lvm' (did you mean 'llvm'?)\n"
        "    cuda -host='lvm -mtriple=aarch64-linux-gnu'\n"
        "                ^")


def test_error_offsets_survive_escapes_in_nested_text() -> None:
    # Two levels of quoting: the inner kind sits after escaped quotes in the source.
    text = "cuda -host='cuda -host=\\'lvm\\''"
    err = _error(text)
    assert isinstance(err, tl.UnknownKindError)
    assert text[err.offset:err.offset + 3] == "lvm"


def test_error_offsets_after_mkldnn_rewrite() -> None:
    text = "llvm -libs=mkldnn -mcpu=a -mcpu=b"
    err = _error(text)
    assert text[err.offset:].startswith("mcpu=b")


def test_error_did_you_mean_kind() -> None:
    assert "did you mean 'cuda'" in _error("cdua -arch=sm_80").message
    assert "did you mean" not in _error("zzzzzz").message


def test_error_json_names_the_path() -> None:
    err = _error('{"kind": "cuda", "host": {"kind": "llvm", "mcpu": 3}}')
    assert isinstance(err, tl.AttributeTypeError)
    assert err.path == "host.mcpu"
    assert "(at host.mcpu)" in str(err)
    err = _error('{"kind": "composite", "devices": ["cuda", {"kind": "cuda", "arch": "x"}]}')
    assert err.path == "devices[1].arch"


def test_error_from_json_dict_has_no_source() -> None:
    with pytest.raises(tl.AttributeTypeError) as info:
        tl.from_json({"kind": "cuda", "max_num_threads": 1.5})
    assert info.value.source is None
    assert info.value.offset is None
    assert info.value.path == "max_num_threads"


def test_error_multiline_source_shows_its_line() -> None:
    err = _error("llvm -mcpu=a\nb -mcpu=c")
    assert "(at line 2, column 4)" in str(err)
    assert str(err).splitlines()[1] == "    b -mcpu=c"


def test_error_is_a_value_error_and_pickles() -> None:
    err = _error("cuda -arhc=sm_80")
    assert isinstance(err, ValueError)
    copy = pickle.loads(pickle.dumps(err))
    assert type(copy) is type(err)
    assert (copy.message, copy.source, copy.offset) == (err.message, err.source, err.offset)


@pytest.mark.parametrize("text", ["   ", "cuda -host=' '", "composite -devices=' '",
                                  '{"kind": "llvm", "host": " "}',
                                  "llvm -mtriple=aarch64-linux-gnu -mattr=neon"])
def test_error_inputs_that_crash_tvm_raise_target_error(text: str) -> None:
    with pytest.raises(tl.TargetError):
        tl.parse(text)


def test_error_deep_json_nesting_is_a_target_error() -> None:
    text = '{"kind": "llvm", "host": ' * 2000 + '{"kind": "llvm"}' + "}" * 2000
    with pytest.raises(tl.TargetError):
        tl.parse(text)
    nested: dict[str, object] = {"kind": "llvm"}
    for _ in range(5000):
        nested = {"kind": "llvm", "host": nested}
    with pytest.raises(tl.TargetError):
        tl.from_json(nested)


@pytest.mark.parametrize("dialect", ["tvm-0.24", "tvm-0.25", "tvm-0.26", "tvm-0.27"])
def test_error_json_releases_read_text_without_a_space_as_a_kind_name(dialect: str) -> None:
    for text in ('\t{"kind":"llvm"}', "", "\t", "no.such"):
        with pytest.raises(tl.UnknownKindError, match="unknown target kind"):
            tl.parse(text, dialect=dialect)
    for text in (' {"kind": "llvm"}', "llvm ", " nvidia/jetson-nano"):
        with pytest.raises(tl.TargetSyntaxError, match="legacy target string"):
            tl.parse(text, dialect=dialect)
    assert tl.parse('{"kind": "llvm"}\r\n', dialect=dialect).kind == "llvm"


def test_error_from_json_text_takes_json_white_space_only() -> None:
    assert tl.from_json(' \t\r\n{"kind": "llvm"}').kind == "llvm"  # as json.loads
    for text in ('\x0c{"kind": "llvm"}', '\xa0{"kind": "llvm"}', " llvm"):
        with pytest.raises(tl.TargetSyntaxError, match="must be an object"):
            tl.from_json(text)
