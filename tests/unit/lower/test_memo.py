"""The one bounded memo (``targetlang/_memo.py``) and ``parse``'s use of it."""

from __future__ import annotations

import threading

import pytest

import targetlang as tl
from targetlang._memo import ORDINARY_CHARS, Memo, memoized, text_size
from targetlang.target import _parse_memo


def test_a_memo_keeps_at_most_maxsize_entries_the_oldest_dropped_first() -> None:
    memo: Memo[int, str] = Memo(3)
    for i in range(5):
        assert memo.put(i, str(i)) == str(i)
    assert len(memo) == 3
    assert [memo.get(i) for i in range(5)] == [None, None, "2", "3", "4"]
    memo.put(3, "again")  # a key kept already takes no room of another
    assert len(memo) == 3 and memo.get(2) == "2" and memo.get(3) == "again"
    memo.clear()
    assert len(memo) == 0 and memo.get(3) is None


@pytest.mark.parametrize("key", ["x" * (ORDINARY_CHARS + 1), b"x" * (ORDINARY_CHARS + 1),
                                 ("a" * ORDINARY_CHARS, "b"), ("k", ("a" * ORDINARY_CHARS, "b"))])
def test_a_memo_never_keeps_a_key_of_more_text_than_ordinary(key: object) -> None:
    memo: Memo[object, int] = Memo(10)
    assert text_size(key) > ORDINARY_CHARS
    assert memo.put(key, 1) == 1
    assert len(memo) == 0
    memo.put(("k", "x" * (ORDINARY_CHARS - 1)), 2)
    assert len(memo) == 1


def test_memoized_computes_once_and_not_what_it_cannot_keep() -> None:
    calls: list[object] = []

    @memoized(maxsize=2)
    def double(value: object) -> object:
        calls.append(value)
        return value * 2  # type: ignore[operator]

    assert double(2) == 4 and double(2) == 4 and calls == [2]
    assert double([1]) == [1, 1] and double([1]) == [1, 1]  # unhashable: computed each time
    assert calls == [2, [1], [1]]
    long = "x" * (ORDINARY_CHARS + 1)
    double(long)
    double(long)
    assert calls[-2:] == [long, long]  # too long to keep
    double.cache_clear()
    double(2)
    assert calls[-1] == 2


def test_a_memo_gives_right_answers_under_threads() -> None:
    memo: Memo[int, int] = Memo(16)
    wrong: list[tuple[int, int | None]] = []

    def work(offset: int) -> None:
        for i in range(3000):
            key = (i * 7 + offset) % 40
            hit = memo.get(key)
            if hit is not None and hit != key * key:
                wrong.append((key, hit))
            memo.put(key, key * key)
            if len(memo) > 16:
                wrong.append((-1, len(memo)))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not wrong


def test_a_warm_read_of_an_equal_but_distinct_string_is_the_same_target() -> None:
    text = "cuda -arch=sm_80 -libs=cudnn,cublas -host='llvm -mtriple=x86_64-linux-gnu'"
    env = tl.Environment.no_gpu()
    first = tl.parse(text, environment=env)
    copy = "".join(list(text))
    assert copy is not text
    again = tl.parse(copy, environment=env)  # revived from the memo's record of the text
    assert again == first and again.to_json() == first.to_json()
    assert [(k, type(v)) for k, v in again.attrs.items()] == \
        [(k, type(v)) for k, v in first.attrs.items()]
    assert tl.parse(copy, environment=env) is again  # kept from its second read on
    assert tl.parse(copy) is not again and tl.parse(copy) == tl.parse(text)  # no environment


def test_a_revived_target_has_the_trace_of_its_reading() -> None:
    from targetlang._inspect.explain import explain

    text = "rocm -mcpu=gfx908 --libs 'miopen , rocblas' -host='llvm -mcpu=\\'skylake\\''"
    env = tl.Environment.no_gpu()
    first = tl.parse(text, environment=env)
    again = tl.parse(text, environment=env)
    assert again is not first
    assert again._trace == first._trace and again.host is not None and first.host is not None
    revived, read = again.host._trace, first.host._trace
    assert revived._replace(place=None) == read._replace(place=None)
    assert revived.place is not None and read.place is not None
    assert list(revived.place.positions or ()) == list(read.place.positions or ())
    assert explain(text, environment=env) == explain(text, environment=env)


def test_what_the_memo_keeps_of_texts_read_once_the_collector_does_not_track() -> None:
    """A long run of distinct texts adds nothing for the collector's passes to walk."""
    import gc

    env = tl.Environment(system_triple="x86_64-memo-test-linux-gnu")
    texts = [f"cuda -arch=sm_80 -libs=cudnn,cublas -model=m{i} -host='llvm -mcpu=c{i}'"
             for i in range(3000)] + [f"cuda -arch=sm_80 -modle=m{i}" for i in range(500)]
    for text in texts[:100]:  # (the table, its plans and memos made)
        try:
            tl.parse(text, environment=env)
        except tl.TargetError:
            pass
    gc.collect()
    before = len(gc.get_objects())
    for text in texts[100:]:
        try:
            tl.parse(text, environment=env)
        except tl.TargetError:
            pass
    # A tuple stops being tracked once what it holds has: a pass may meet a record before
    # its parts, so a second pass shows what stays.
    gc.collect()
    gc.collect()
    kept = _parse_memo.get(("tvm-0.21", env._key))
    assert kept is not None and len(kept) == len(texts)
    assert len(gc.get_objects()) - before < 100  # (3,400 texts more kept: none tracked)


def test_a_full_memo_drops_its_oldest_entry_first() -> None:
    memo: Memo[int, int] = Memo(100)
    for i in range(10_000):
        memo.put(i, i)
    assert len(memo) == 100 and memo.get(9_899) is None and memo.get(9_900) == 9_900


def test_errors_are_kept_and_raised_afresh() -> None:
    text = "cuda -arhc=sm_80"
    with pytest.raises(tl.TargetError) as one:
        tl.parse(text)
    with pytest.raises(tl.TargetError) as two:
        tl.parse(text.encode().decode())
    with pytest.raises(tl.TargetError) as three:
        tl.parse(text)
    assert one.value is not two.value and str(one.value) == str(two.value)
    assert type(one.value) is type(two.value) is type(three.value)
    assert (two.value.offset, two.value.suggestion) == (one.value.offset, one.value.suggestion)
    assert three.value is not two.value and str(three.value) == str(one.value)
    assert one.value.__traceback__ is not None


def test_the_memo_of_reads_is_bounded_by_dialect_and_environment() -> None:
    for n in range(20):
        tl.parse("llvm", environment=tl.Environment(system_triple=f"x{n}-linux-gnu"))
    assert len(_parse_memo) <= _parse_memo.maxsize
    assert tl.parse("llvm", environment=tl.Environment(system_triple="x3-linux-gnu")
                    ).attrs["mtriple"] == "x3-linux-gnu"
