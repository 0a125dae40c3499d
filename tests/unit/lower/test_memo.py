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
    text = "cuda -arch=sm_80 -libs=cudnn,cublas"
    env = tl.Environment.no_gpu()
    first = tl.parse(text, environment=env)
    copy = "".join(list(text))
    assert copy is not text
    assert tl.parse(copy, environment=env) is first
    assert tl.parse(copy) is not first and tl.parse(copy) == tl.parse(text)  # no environment


def test_errors_are_kept_and_raised_afresh() -> None:
    text = "cuda -arhc=sm_80"
    with pytest.raises(tl.TargetError) as one:
        tl.parse(text)
    with pytest.raises(tl.TargetError) as two:
        tl.parse(text.encode().decode())
    assert one.value is not two.value and str(one.value) == str(two.value)
    assert one.value.__traceback__ is not None


def test_the_memo_of_reads_is_bounded_by_dialect_and_environment() -> None:
    for n in range(20):
        tl.parse("llvm", environment=tl.Environment(system_triple=f"x{n}-linux-gnu"))
    assert len(_parse_memo) <= _parse_memo.maxsize
    assert tl.parse("llvm", environment=tl.Environment(system_triple="x3-linux-gnu")
                    ).attrs["mtriple"] == "x3-linux-gnu"
