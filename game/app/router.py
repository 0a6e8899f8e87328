"""The router: the one place that turns a scene's request (``game.app.navigation``) into
the scene it means.

Scenes name where they want to go with a typed request and never import each other;
this module imports every scene and builds them.  The App calls ``scene_for`` when a
scene asks it to push, replace or reset; ``None`` means there is nothing to show (the
unfinished game could not be set up: a toast said why).
"""

from __future__ import annotations

from ai.levels import Level
from game.app.navigation import (
    AskFirst,
    BackToTitle,
    HostGame,
    JoinGame,
    MistakesQueue,
    NewGame,
    OpenAnalysis,
    OpenExplorer,
    OpenJoinForm,
    OpenMctsTree,
    OpenNetwork,
    OpenReview,
    OpenTree,
    PlayFrom,
    PlayHere,
    PlayOn,
    Practise,
    Request,
    ResumeGame,
    ResumeNetworkGame,
    RetryMistakes,
    ShowCodeWalk,
    ShowCourse,
    ShowDepthChart,
    ShowGameOver,
    ShowHelp,
    ShowLevelSelect,
    ShowMctsChart,
    ShowOptions,
    ShowPastGames,
    ShowPause,
    ShowPuzzles,
    ShowPuzzleThemes,
    ShowStorm,
    ShowStreak,
    ShowTreeBuilder,
)
from game.app.scene import Scene, SceneHost
from game.app.scenes.analysis import AnalysisScene
from game.app.scenes.confirm import ConfirmScene
from game.app.scenes.course import CourseScene
from game.app.scenes.explorer import ExplorerScene
from game.app.scenes.game_over import GameOverScene
from game.app.scenes.help import HowToPlayScene
from game.app.scenes.level_select import LevelSelectScene, PlayOnScene
from game.app.scenes.network import NetworkMenuScene
from game.app.scenes.network_form import JoinFormScene
from game.app.scenes.network_table import NetworkTableScene
from game.app.scenes.options import OptionsScene
from game.app.scenes.past_games import PastGamesScene
from game.app.scenes.pause import PauseScene
from game.app.scenes.play import PlayHereScene, PlayScene
from game.app.scenes.puzzle_themes import PuzzleThemesScene
from game.app.scenes.puzzles import PuzzlesScene
from game.app.scenes.retry import MistakesQueueScene, retry_of_review
from game.app.scenes.review import ReviewScene
from game.app.scenes.storm import StormScene
from game.app.scenes.streak import StreakScene
from game.app.scenes.title import TitleScene
from game.app.scenes.tree_builder import TreeBuilderScene
from game.app.settings import Opponent
from game.app.tree.code_scene import CodeWalkScene
from game.app.tree.depth_scene import DepthChartScene
from game.app.tree.mcts_chart_scene import MctsChartScene
from game.app.tree.mcts_scene import MctsScene
from game.app.tree.practice_scene import PracticeScene
from game.app.tree.scene import TreeScene
from game.board import Board
from game.i18n import _, ngettext
from game.match import Match
from game.net.comeback import Comeback
from game.records import InProgress, Unfinished
from game.rules import MAX, MIN


def scene_for(request: Request, host: SceneHost) -> Scene | None:
    """The scene ``request`` asks for, built with what ``host`` knows (the settings)."""
    match request:
        case BackToTitle():
            return TitleScene()
        case ShowOptions():
            return OptionsScene()
        case ShowHelp():
            return HowToPlayScene()
        case ShowLevelSelect():
            return LevelSelectScene()
        case NewGame():
            return PlayScene.from_settings(host.settings)
        case PlayOn(board):
            return PlayOnScene(board)
        case PlayFrom(board, level):
            return play_from(board, level)
        case ResumeGame(kept):
            return resume_game(host, kept)
        case PlayHere(kept):
            return play_here(host, kept)
        case AskFirst(title, lines, yes_label, then):
            return ConfirmScene(title, lines, yes_label, then)
        case ShowPause(game):
            return PauseScene(game)
        case ShowGameOver(game):
            return GameOverScene(game)
        case ShowPastGames():
            return PastGamesScene()
        case RetryMistakes(review, depths, names):
            return retry_of_review(review, depths, names)
        case MistakesQueue(games):
            return MistakesQueueScene(list(games))
        case OpenReview():
            return review_of(request)
        case OpenAnalysis(board):
            return AnalysisScene(board if board is not None else Board(host.settings.rules()))
        case OpenExplorer(moves):
            return ExplorerScene(list(moves))
        case OpenTree(source, index):
            return TreeScene(source, index)
        case ShowCodeWalk(tree):
            return CodeWalkScene(tree)
        case ShowDepthChart(tree):
            return DepthChartScene(tree)
        case Practise(tree):
            return PracticeScene(tree)
        case OpenNetwork():
            return NetworkMenuScene()
        case OpenJoinForm(watch, address, code, note):
            return JoinFormScene(watch, address, code, note)
        case HostGame(settings, fallback):
            return NetworkTableScene(hosting=settings, fallback=fallback)
        case JoinGame(settings):
            return NetworkTableScene(joining=settings)
        case ResumeNetworkGame(kept):
            return resume_network_game(host, kept)
        case ShowCourse(number):
            return CourseScene(number)
        case OpenMctsTree(board, playouts, depth, found):
            return MctsScene(board, playouts, depth=depth, found=found)
        case ShowMctsChart(board, budgets, seed):
            return MctsChartScene(board, budgets, seed)
        case ShowTreeBuilder(exercise):
            return TreeBuilderScene(exercise)
        case ShowPuzzles():
            return PuzzlesScene()
        case ShowPuzzleThemes(chooser):
            return PuzzleThemesScene(chooser)
        case ShowStorm():
            return StormScene()
        case ShowStreak():
            return StreakScene()
    raise TypeError(f"no scene for {request!r}")  # pragma: no cover - every request is above


def review_of(request: OpenReview) -> ReviewScene:
    """The review screen of the game ``request`` names."""
    return ReviewScene(
        request.rules,
        list(request.moves),
        start=request.start,
        start_to_move=request.start_to_move,
        names=dict(request.names),
        depths=dict(request.depths),
        game_id=request.game_id,
    )


def play_from(board: Board, level: Level) -> PlayScene:
    """A game from ``board`` against ``level``: the person plays the side to move."""
    first = "human" if board.to_move == MAX else "computer"
    scene = PlayScene(board.rules, level, Opponent.COMPUTER, first=first)
    scene.match = Match(board.rules, board=board.copy())
    return scene


def resume_game(host: SceneHost, kept: InProgress) -> Scene | None:
    """The unfinished game ``kept`` as it was left: a local game with its sides as they
    were; a network game over the network again, or (it cannot be: no record of how to
    reach it) a question first, since it can only go on at this screen."""
    if kept.kind is Unfinished.NETWORK and kept.settings.get("network") != "local":
        if Comeback.of_unfinished(kept) is not None:
            return resume_network_game(host, kept)
        count = len(kept.moves)
        return ConfirmScene(
            _("A game over the network"),
            (
                _("{first} against {second}, over the network.").format(first=kept.first, second=kept.second),
                ngettext(
                    "It was kept without a way to reach the other player again: it can only go on here, "
                    "two players at this screen, from its {count} disc.",
                    "It was kept without a way to reach the other player again: it can only go on here, "
                    "two players at this screen, from its {count} discs.",
                    count,
                ).format(count=count),
            ),
            _("Play it here"),
            PlayHere(kept),
        )
    if kept.kind is Unfinished.NETWORK:  # already played on at this screen
        return play_here(host, kept)
    settings = host.settings
    try:  # the kind the game was kept as is its opponent (a row without the setting: the same)
        opponent = Opponent(kept.settings.get("opponent", kept.kind.value))
    except ValueError:
        opponent = Opponent(kept.kind.value)
    first = kept.settings.get("first", settings.first)
    level2 = settings.second_level if opponent is Opponent.DEMO else None
    scene = PlayScene(
        kept.rules, settings.level, opponent, first=first if first in ("human", "computer") else "human", level2=level2
    )
    return set_up(host, scene, kept)


def play_here(host: SceneHost, kept: InProgress) -> PlayScene | None:
    """The unfinished network game ``kept`` played on at this screen, by two people (it
    stays this window's unfinished network game, named as it was)."""
    return set_up(host, PlayHereScene(kept.rules, host.settings.level, {MAX: kept.first, MIN: kept.second}), kept)


def set_up(host: SceneHost, scene: PlayScene, kept: InProgress) -> PlayScene | None:
    """``scene`` with ``kept``'s moves played, ``kept`` taken over by this window (None:
    the moves are not a game of its rules, and a toast says why)."""
    try:
        for move in kept.moves:
            scene.match.play(move)
    except ValueError as error:
        host.show_toast(_("The unfinished game could not be set up: {error}").format(error=error), 5.0)
        return None
    host.archive.take_in_progress(kept)  # this window's game now: offered to no other
    return scene


def resume_network_game(host: SceneHost, kept: InProgress) -> NetworkTableScene | None:
    """The network table going on with ``kept``: hosting it again or joining its host again."""
    comeback = Comeback.of_unfinished(kept)
    if comeback is None:
        return None
    host.archive.take_in_progress(kept)  # this window's network game now: offered to no other
    return NetworkTableScene(kept=kept, comeback=comeback)
