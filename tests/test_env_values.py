"""What the Gymnasium environments take (issue 34, item 5; marker ``rl``): ``step`` takes
exactly what ``action_space.contains`` takes, bools aside, and ``reset`` only the option
``game_seed`` in [0, 2**63). Anything else is a TypeError (wrong type or dtype) or a
ValueError (out of range, wrong shape), one line of at most 600 characters naming the value
and the space, raised before a tick is played."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

from asteroids.env import ACTIONS  # noqa: E402
from asteroids.env.checks import GAME_SEEDS  # noqa: E402
from asteroids.messages import MAX_LINE  # noqa: E402

pytestmark = pytest.mark.rl

GAMES = 3
"""Games in the vector environment these tests step."""
TOP = len(ACTIONS) - 1
"""The largest action (13)."""


@pytest.fixture(scope="module")
def env():
    env = gym.make("asteroids/Classic-v0", max_ticks=10**6).unwrapped
    env.reset(seed=1)
    return env


@pytest.fixture(scope="module")
def venv():
    envs = gym.make_vec("asteroids/Classic-v0", num_envs=GAMES, max_ticks=10**6,
                        vectorization_mode="vector_entry_point")
    envs.reset(seed=1)
    return envs


def _refused(kind, call, *args, **kwargs) -> str:
    """The ``kind`` error ``call`` raises: one line of at most 600 characters."""
    with pytest.raises(kind) as info:
        call(*args, **kwargs)
    assert type(info.value) is kind, repr(info.value)
    text = str(info.value)
    assert "\n" not in text and len(text) <= MAX_LINE, text
    return text


def _is_bool(value) -> bool:
    return isinstance(value, (bool, np.bool_)) or (
        isinstance(value, np.ndarray) and value.dtype.kind == "b")


def _has_bool(value) -> bool:
    return _is_bool(value) or (isinstance(value, (list, tuple))
                               and any(_is_bool(v) for v in value))


# -- the single environment ------------------------------------------------------------------

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
              np.uint64]
DTYPES = [*INT_DTYPES, np.float32, np.float64, np.bool_]
small_ints = st.integers(-20, 30)


def _elements(dtype: type) -> st.SearchStrategy:
    """Values of ``dtype`` around the action range (0..13), both ends of it included."""
    if dtype is np.bool_:
        return st.booleans()
    if np.dtype(dtype).kind == "f":
        return st.one_of(st.floats(-20, 30), st.integers(-20, 30).map(float),
                         st.sampled_from([float("nan"), float("inf")]))
    info = np.iinfo(dtype)
    return st.integers(max(int(info.min), -20), min(int(info.max), 30))


scalars = st.one_of(
    small_ints, st.integers(), st.booleans(), st.floats(), st.text(max_size=5), st.none(),
    st.sampled_from(DTYPES).flatmap(
        lambda t: _elements(t).map(lambda v: np.dtype(t).type(v))),
)
"""Candidate actions: ints (small and any), bools, floats, strings, None, numpy scalars."""
arrays = st.sampled_from(DTYPES).flatmap(
    lambda t: hnp.arrays(np.dtype(t), hnp.array_shapes(min_dims=0, max_dims=2, max_side=4),
                         elements=_elements(t)))
"""Candidate arrays: 0-d to 2-d of every integer dtype, floats and bools."""
candidates = st.one_of(scalars, arrays, st.lists(small_ints, max_size=4),
                       st.tuples(small_ints, small_ints))


@given(action=candidates)
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_step_takes_exactly_what_the_action_space_contains_bools_aside(env, action):
    contained = env.action_space.contains(action) and not _has_bool(action)
    tick = env.world.tick
    if contained:
        env.step(action)
        assert env.world.tick == tick + 1 or env.world.game_over
    else:
        with pytest.raises((TypeError, ValueError)) as info:
            env.step(action)
        text = str(info.value)
        assert "Discrete(14)" in text and "\n" not in text and len(text) <= MAX_LINE
        assert env.world.tick == tick, "a refused action plays no tick"


@pytest.mark.parametrize("action", [0, TOP, np.int8(TOP), np.uint32(TOP), np.int64(0),
                                    np.array(TOP), np.array(0, dtype=np.uint8)], ids=repr)
def test_the_ends_of_the_action_range_are_played(env, action):
    assert env.action_space.contains(action)
    tick = env.world.tick
    env.step(action)
    assert env.world.tick == tick + 1


@pytest.mark.parametrize("action", [-1, -14, TOP + 1, 2**63, 2**64, 10**5000, np.int64(-1),
                                    np.int8(TOP + 1), np.array(TOP + 1), np.array([3]),
                                    np.array([[3]])], ids=lambda a: type(a).__name__)
def test_one_past_each_end_is_a_value_error(env, action):
    text = _refused(ValueError, env.step, action)
    assert "not in the action space Discrete(14)" in text and "[0, 13]" in text


@pytest.mark.parametrize("action", [1.7, 3.0, float("nan"), float("inf"), "3", b"3", True,
                                    False, np.True_, np.array(True), np.float64(3.0),
                                    np.uint64(3), np.array(3, dtype=np.uint64), None, [3],
                                    (3,), {3: 3}, object(), 1 + 0j],
                         ids=lambda a: "object" if type(a) is object else repr(a))
def test_actions_of_another_type_are_a_type_error(env, action):
    text = _refused(TypeError, env.step, action)
    assert text.startswith("action ") and "Discrete(14)" in text


def test_the_attackers_actions_play_nothing(env):
    """The report: -1 and -14 played actions 13 and 0, 1.7 played 1, '3' played 3."""
    tick = env.world.tick
    for action in (-1, -14, 14, 1.7, "3", True, float("nan")):
        with pytest.raises((TypeError, ValueError)):
            env.step(action)
    assert env.world.tick == tick


def test_a_hostile_action_still_gets_a_short_message(env):
    class Loud:
        def __repr__(self) -> str:
            raise RuntimeError("no repr for you")

    assert "Loud instance" in _refused(TypeError, env.step, Loud())
    assert "1 000 000 characters" in _refused(TypeError, env.step, "x" * 10**6)
    _refused(TypeError, env.step, [[[[[[0]]]]]] * 10**5)
    deep: list = []
    for _ in range(10**4):
        deep = [deep]
    _refused(TypeError, env.step, deep)


# -- the vector environment ------------------------------------------------------------------

vector_candidates = st.one_of(
    st.lists(st.one_of(small_ints, st.booleans()), min_size=GAMES - 1, max_size=GAMES + 1),
    st.lists(st.integers(-1, TOP + 1), min_size=GAMES, max_size=GAMES),
    st.lists(st.integers(0, TOP).map(np.int64), min_size=GAMES, max_size=GAMES),
    st.lists(st.floats(-1, 14), min_size=GAMES, max_size=GAMES),
    hnp.arrays(np.int64, GAMES, elements=st.integers(-1, TOP + 1)),
    st.tuples(*[small_ints] * GAMES),
    st.sampled_from(DTYPES).flatmap(
        lambda t: hnp.arrays(np.dtype(t), st.sampled_from([(GAMES,), (GAMES,), (GAMES - 1,),
                                                            (1, GAMES), ()]),
                             elements=_elements(t))),
    scalars,
)
"""Candidate vector actions: lists (of ints, bools, floats; right and wrong lengths),
tuples, arrays of every dtype and several shapes, and the single candidates."""


@given(actions=vector_candidates)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_vector_step_takes_exactly_what_its_action_space_contains_bools_aside(venv,
                                                                               actions):
    contained = venv.action_space.contains(actions) and not _has_bool(actions)
    ticks = venv.batch.tick.copy()
    if contained:
        venv.step(actions)
    else:
        with pytest.raises((TypeError, ValueError)) as info:
            venv.step(actions)
        text = str(info.value)
        assert "MultiDiscrete" in text and "\n" not in text and len(text) <= MAX_LINE
        assert (venv.batch.tick == ticks).all(), "refused actions play no tick"


def test_the_vector_ends_of_the_range_are_played_and_one_past_refused(venv):
    venv.step([0, TOP, 0])
    venv.step(np.array([TOP] * GAMES, dtype=np.uint8))
    assert "game 1 has 14" in _refused(ValueError, venv.step, [0, TOP + 1, 0])
    assert "game 2 has -1" in _refused(ValueError, venv.step, np.array([0, 0, -1]))
    assert "shape (2,)" in _refused(ValueError, venv.step, [0, 0])
    assert "shape (1, 3)" in _refused(ValueError, venv.step, np.zeros((1, GAMES), np.int64))


@pytest.mark.parametrize("actions", [
    [-1] * GAMES, [1.9] * GAMES, np.array([0.0, 0.0, np.nan]), [True] * GAMES,
    [True, 1, 2], np.ones(GAMES, dtype=bool), np.ones(GAMES, dtype=np.uint64), "012", 5,
    None, [[0], [1, 2], [0]], ["0", "1", "2"],
], ids=repr)
def test_the_attackers_vector_actions_play_nothing(venv, actions):
    """The report: [-1] * 4 and 1.9 were played, NaN ended in an IndexError."""
    ticks = venv.batch.tick.copy()
    with pytest.raises((TypeError, ValueError)) as info:
        venv.step(actions)
    assert type(info.value) in (TypeError, ValueError)
    assert len(str(info.value)) <= MAX_LINE
    assert (venv.batch.tick == ticks).all()


def test_a_masked_array_is_checked_by_the_values_it_plays(venv):
    """Gymnasium's contains skips masked values; the env plays the data, so checks it."""
    hidden = np.ma.masked_array([0, 1, 99], mask=[False, False, True])
    assert venv.action_space.contains(hidden)
    _refused(ValueError, venv.step, hidden)


def test_a_long_action_list_gets_a_short_message():
    envs = gym.make_vec("asteroids/Classic-v0", num_envs=4096,
                        vectorization_mode="vector_entry_point")
    text = _refused(ValueError, envs.step, [20] * 4096)
    assert "game 0 has 20" in text and "shape (4096,)" in text


# -- reset options ---------------------------------------------------------------------------

def test_game_seeds_are_the_non_negative_int64s():
    assert (GAME_SEEDS.start, GAME_SEEDS.stop) == (0, 2**63)


@pytest.mark.parametrize("make", ["single", "vector"])
def test_the_ends_of_the_game_seed_range_are_played_and_one_past_refused(make):
    env = (gym.make("asteroids/Classic-v0").unwrapped if make == "single" else
           gym.make_vec("asteroids/Classic-v0", num_envs=2,
                        vectorization_mode="vector_entry_point"))
    for seed in (0, 2**63 - 1, np.int64(2**63 - 1), np.uint64(5), np.int8(5)):
        _, info = env.reset(options={"game_seed": seed})
        assert np.all(np.asarray(info["game_seed"]) == int(seed))
    for seed in (-1, 2**63, 2**64, 2**200, np.int64(-1), np.uint64(2**63)):
        assert "[0, 2**63)" in _refused(ValueError, env.reset, options={"game_seed": seed})
    for seed in (1.9, 1.0, True, np.True_, "7", None, np.float64(3), [1]):
        _refused(TypeError, env.reset, options={"game_seed": seed})
    assert "'seed'" in _refused(ValueError, env.reset, options={"seed": 3})
    assert "and 7 more" in _refused(ValueError, env.reset,
                                    options={f"k{i}": i for i in range(10)})
    for options in ([("game_seed", 1)], "game_seed", 7):
        _refused(TypeError, env.reset, options=options)
    env.reset(options={})
    env.reset(options=None)


def test_a_refused_game_seed_leaves_the_episode_as_it_was():
    env = gym.make("asteroids/Classic-v0").unwrapped
    env.reset(options={"game_seed": 5})
    env.step(0)
    _refused(TypeError, env.reset, options={"game_seed": 1.9})
    assert (env.game_seed, env.world.tick) == (5, 1)
