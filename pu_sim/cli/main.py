"""``pu-sim``'s entry point: parse, dispatch, and turn failures into one line.

Bad input exits with status 2 and one line naming the input (never a
traceback); a run that fails part-way exits 1 and Ctrl-C exits 130, both
saying how to resume.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable, Sequence

from pu_sim.cli import commands
from pu_sim.cli.parser import build


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pu-sim`` command."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["study"]:  # the study parses its own flags (one definition)
        return _guarded(lambda: commands.study(argv[1:]))
    parser = build()
    args = parser.parse_args(argv)
    if args.version:
        return commands.version()
    if args.command is None:
        parser.print_usage(sys.stderr)
        print("pu-sim: error: a command is required (see --help)", file=sys.stderr)
        return 2
    run = {
        "simulate": commands.simulate, "report": commands.report,
        "play": commands.play, "list": commands.listing,
        "compare": commands.compare, "balance": commands.balance,
    }[args.command]  # fmt: skip
    return _guarded(lambda: run(args))


def _guarded(command: Callable[[], int]) -> int:
    """Run a command; a failure becomes one line and its exit status.

    A warning (a part replayed, games left out of a report) becomes one line
    too: ``pu-sim: note: ...``.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.showwarning = _note
        return _run(command)


def _note(message: Warning | str, *args: object, **kwargs: object) -> None:
    """A warning as one line on stderr."""
    print(f"pu-sim: note: {one_line(message)}", file=sys.stderr)  # type: ignore[arg-type]


def _run(command: Callable[[], int]) -> int:
    from pu_sim.simulation.runner import RunError

    try:
        return command()
    except (ValueError, TypeError, ImportError) as exc:
        print(f"pu-sim: error: {one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `pu-sim play | head`
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the final flush
        return 0
    except (RunError, OSError) as exc:  # stopped part-way: resumable
        print(f"pu-sim: error: {one_line(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("pu-sim: interrupted", file=sys.stderr)
        return 130


def one_line(exc: BaseException) -> str:
    """An exception as one line of text."""
    text = " ".join(str(exc).split())
    return text or type(exc).__name__
