"""The JSON Schema of ``targetlang schema`` accepts every to_json() and refuses broken documents."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable
from typing import Any

import pytest

jsonschema = pytest.importorskip("jsonschema")

from golden import records  # noqa: E402

import targetlang  # noqa: E402
from targetlang import Environment, TargetError  # noqa: E402
from targetlang._formats.json_schema import json_schema  # noqa: E402
from targetlang.cli import main  # noqa: E402

Doc = dict[str, Any]


@functools.cache
def validator(dialect: str = "tvm-0.21") -> Any:
    schema = json_schema(dialect)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@functools.cache
def golden_documents() -> tuple[Doc, ...]:
    """The to_json() of every accepted golden case, each distinct document once (2,045 of
    3,441: validating a document twice proves nothing more, and costs CI time)."""
    env = Environment.no_gpu()
    distinct: dict[str, Doc] = {}
    for record in records():
        if record["ok"]:
            document = targetlang.parse(record["input"], environment=env).to_json()
            distinct.setdefault(json.dumps(document, sort_keys=True), document)
    return tuple(distinct.values())


def test_the_cli_prints_this_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == json_schema()


def test_every_golden_to_json_is_valid() -> None:
    documents = golden_documents()
    assert len(documents) == 2045
    for document in documents:
        errors = list(validator().iter_errors(document))
        assert not errors, (document, errors[0].message)


def test_every_tag_is_valid() -> None:
    for target in targetlang.tags().values():
        validator().validate(target.to_json())


def test_collage_schema() -> None:
    collage = validator("collage")
    collage.validate(targetlang.parse("cuda -compiler=tensorrt", dialect="collage").to_json())
    assert not validator().is_valid({"kind": "cuda", "compiler": "tensorrt"})


def _first_with(predicate: Callable[[Doc], bool]) -> Doc:
    return copy.deepcopy(next(d for d in golden_documents() if predicate(d)))


def _int_attr(doc: Doc) -> str | None:
    spec = targetlang.kinds()[doc["kind"]]
    return next((k for k in doc if k in spec.attrs and spec.attrs[k].type == "int"
                 and isinstance(doc[k], int)), None)


MUTATIONS: dict[str, Callable[[Doc], Doc]] = {}


def mutation(f: Callable[[Doc], Doc]) -> Callable[[Doc], Doc]:
    MUTATIONS[f.__name__] = f
    return f


@mutation
def unknown_attribute(doc: Doc) -> Doc:
    doc["arhc"] = "sm_80"
    return doc


@mutation
def no_kind(doc: Doc) -> Doc:
    del doc["kind"]
    return doc


@mutation
def unknown_kind(doc: Doc) -> Doc:
    doc["kind"] = doc["kind"] + "x"
    return doc


@mutation
def keys_not_an_array(doc: Doc) -> Doc:
    doc["keys"] = ",".join(doc["keys"])
    return doc


@mutation
def key_not_a_string(doc: Doc) -> Doc:
    doc["keys"] = [*doc["keys"], 7]
    return doc


@mutation
def integer_as_string(doc: Doc) -> Doc:
    name = _int_attr(doc)
    assert name is not None
    doc[name] = str(doc[name])
    return doc


@mutation
def integer_too_large(doc: Doc) -> Doc:
    name = _int_attr(doc)
    assert name is not None
    doc[name] = 2**63
    return doc


@mutation
def host_a_number(doc: Doc) -> Doc:
    doc["host"] = 42
    return doc


@mutation
def nested_host_broken(doc: Doc) -> Doc:
    doc["host"] = {"kind": "llvm", "mcpu": 3}
    return doc


@mutation
def tag_not_a_string(doc: Doc) -> Doc:
    doc["tag"] = ["x"]
    return doc


@mutation
def features_given(doc: Doc) -> Doc:
    doc["features"] = {}
    return doc


@mutation
def string_attribute_null(doc: Doc) -> Doc:
    doc["mcpu"] = None
    return doc


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_mutated_documents_are_refused_by_the_schema_and_by_from_json(name: str) -> None:
    tried = 0
    for document in golden_documents()[::23]:
        if "from_device" in document:
            continue  # a queried export: its own rules (test_queried_exports_...)
        if name in ("integer_as_string", "integer_too_large") and _int_attr(document) is None:
            continue
        if name == "string_attribute_null" and document["kind"] != "llvm":
            continue
        broken = MUTATIONS[name](copy.deepcopy(document))
        assert not validator().is_valid(broken), broken
        with pytest.raises(TargetError):
            targetlang.from_json(broken)
        tried += 1
    assert tried > 0


def test_queried_exports_may_be_null_and_others_not() -> None:
    queried = targetlang.parse("llvm -from_device=0").to_json()
    assert queried["mcpu"] is None
    validator().validate(queried)
    queried["from_device"] = 0
    assert not validator().is_valid(queried)


def test_what_from_json_reads_beyond_to_json() -> None:
    for document in ({"kind": "llvm", "fast-math": 1}, {"kind": "cuda", "host": "llvm -mcpu=x"},
                     {"kind": "cuda", "host": None}, {"kind": "composite", "devices": [None, "cuda"]}):
        validator().validate(document)
        targetlang.from_json(document)
