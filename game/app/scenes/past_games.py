"""Past games: the archive, newest first, filtered by level and result, with a small
chart of the person's wins, draws and losses against each level (and the latest
results, oldest to newest, as a strip of squares).

Controls: Up/Down choose a game, Enter or a click opens its review; L / R cycle the
level / result filter (or click them); M trains your mistakes of the games listed in one
queue (reviewing first the games that have no review); G switches the chart to your
rating over time and back; PageUp/PageDown a page; Esc back.
"""

from __future__ import annotations

import pygame

from game.app.navigation import MistakesQueue, OpenReview
from game.app.scene import Scene
from game.app.scenes.rating_graph import draw_rating_graph
from game.app.theme import draw_mark
from game.app.widgets import Button, click_buttons, display_size
from game.i18n import N_, _, ngettext
from game.learn.rating import PlayerRating
from game.records import HUMAN, GameRecord
from game.rules import MAX, MIN

RESULTS = (None, "win", "draw", "loss")
RESULT_NAMES = {None: N_("all"), "win": N_("you won"), "draw": N_("draws"), "loss": N_("you lost")}
HISTORY = 20
RESULT_MARKS = {"win": "triangle", "draw": "diamond", "loss": "square"}
"""Each result's mark in the legend and the latest games' strip (its colour is not enough)."""
"""Results shown in each level's strip (the latest ones)."""


def game_line(record: GameRecord) -> str:
    """One row of the list: date, rules, who played, result, length."""
    names = [(_("you") if n == HUMAN else n) for n in (record.first, record.second)]
    if record.first == record.second == HUMAN:
        names = [_("player 1"), _("player 2")]
    winner = {"1": 0, "2": 1}.get(record.result.value)
    if winner is None:
        result = _("draw")
    elif names[winner] == _("you"):
        result = _("you won")
    elif names[0] == names[1]:  # "depth 7 v depth 7": the level alone does not say who won
        result = _("{name} won").format(name=_("player 1") if winner == 0 else _("player 2"))
    else:
        result = _("{name} won").format(name=names[winner])
    accuracy = ""
    if record.review and record.review.get("accuracy"):
        values = record.review["accuracy"]
        shown = [f"{v:.0%}" for v in (values.get("1"), values.get("2")) if isinstance(v, (int, float))]
        if shown:
            accuracy = _("  acc {percent}").format(percent="/".join(shown))
    return _("{date_text}  {describe}  {names} v {names2}: {result}, {count} discs{accuracy}").format(
        date_text=record.date_text,
        describe=record.rules.said(),
        names=names[0],
        names2=names[1],
        result=result,
        count=len(record.moves),
        accuracy=accuracy,
    )


class PastGamesScene(Scene):
    name = "past games"

    def __init__(self) -> None:
        super().__init__()
        self.level: str | None = None
        self.result: str | None = None
        self.records: list[GameRecord] = []
        self.unreadable: str | None = None
        self.refusal: str | None = None
        """ "2 stored games could not be read" when damaged rows were skipped."""
        self.levels: list[str | None] = [None]
        self.selected = 0
        self.first = 0
        self.stats: dict[str, dict[str, int]] = {}
        self.history: dict[str, list[str]] = {}
        self.show_rating = False  # G: the chart shows the rating over time
        self.rated: PlayerRating | None = None  # the App's rating (None: still being replayed)
        self.buttons = [
            Button(N_("Level: all"), self.next_level, "L"),
            Button(N_("Result: all"), self.next_result, "R"),
            Button(N_("Retry mistakes"), self.train_mistakes, "M"),
            Button(N_("Review"), self.open_selected, "Enter"),
            Button(N_("Back"), self.back, "Esc"),
        ]

    def on_enter(self) -> None:
        self.reload()

    def on_resume(self) -> None:
        self.reload()

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.rated is None:  # the App's rating was still being replayed
            self.rated = self.app.rating()
            self.app.dirty = self.app.dirty or self.rated is not None

    def reload(self) -> None:
        archive = self.app.archive
        self.levels = [None, *archive.levels()]
        if any(r.first == r.second == HUMAN for r in archive.games()):
            self.levels.append(HUMAN)
        if self.level not in self.levels:
            self.level = None
        self.records = archive.games(level=self.level, result=self.result)
        self.unreadable = archive.unreadable_note()
        self.refusal = archive.refusal  # a newer version's archive this one cannot read
        self.selected = max(0, min(self.selected, len(self.records) - 1))
        self.stats = archive.stats()
        self.history = {level: archive.history(level)[-HISTORY:] for level in self.stats}
        self.rated = self.app.rating()
        self.buttons[0].label = _("Level: {level_name}").format(level_name=self.level_name(self.level))
        self.buttons[1].label = _("Result: {RESULT_NAMES}").format(RESULT_NAMES=_(RESULT_NAMES[self.result]))

    @staticmethod
    def level_name(level: str | None) -> str:
        return _("all") if level is None else (_("two people") if level == HUMAN else level)

    # -- actions -------------------------------------------------------------------------
    def next_level(self) -> None:
        index = self.levels.index(self.level) if self.level in self.levels else 0
        self.level = self.levels[(index + 1) % len(self.levels)]
        self.selected = 0
        self.reload()

    def next_result(self) -> None:
        self.result = RESULTS[(RESULTS.index(self.result) + 1) % len(RESULTS)]
        self.selected = 0
        self.reload()

    def open_selected(self) -> None:
        if not self.records:
            self.app.show_toast(_("No game to review: finished games appear here"))
            return
        self.open_game(self.records[self.selected])

    def open_game(self, record: GameRecord) -> None:
        names = {side: (_("a person") if n == HUMAN else n) for side, n in ((MAX, record.first), (MIN, record.second))}
        depths = {s: d for s, d in ((MAX, record.first_depth), (MIN, record.second_depth)) if d}
        self.app.push(OpenReview(record.rules, tuple(record.moves), names=names, depths=depths, game_id=record.id))

    def train_mistakes(self) -> None:
        """Your mistakes across the games listed, one queue (``game.app.scenes.retry``)."""
        self.app.push(MistakesQueue(tuple(self.records)))

    def toggle_rating(self) -> None:
        self.show_rating = not self.show_rating
        self.app.dirty = True

    def back(self) -> None:
        self.app.pop()

    # -- layout ----------------------------------------------------------------------------
    def areas(self, size: tuple[int, int]) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect, list[pygame.Rect], int]:
        """(title, list, chart, buttons, text size)."""
        w, h = size
        m = 12
        text = max(15, min(20, h // 34))
        title = pygame.Rect(m, m, w - 2 * m, int(text * 2 * self.app.theme.scale) + 8)  # at the UI scale
        bh = max(30, min(42, h // 16))
        row = pygame.Rect(m, h - m - bh, w - 2 * m, bh)
        chart_h = max(110, min(190, int(h * 0.26)))
        chart = pygame.Rect(m, row.top - 10 - chart_h, w - 2 * m, chart_h)
        listing = pygame.Rect(m, title.bottom + 4, w - 2 * m, chart.top - title.bottom - 12)
        widths = [0.22, 0.22, 0.22, 0.17, 0.17]
        rects, x = [], row.left
        for share in widths:
            width = int(row.width * share) - 8
            rects.append(pygame.Rect(x, row.top, width, row.height))
            x += width + 8 + (8 // len(widths))
        return title, listing, chart, rects, text

    def list_geometry(self, listing: pygame.Rect, text: int) -> tuple[int, int]:
        row_h = max(text + 8, self.app.theme.font(text).get_linesize() + 6)  # a line at the UI scale
        fit = max(1, (listing.height - 12) // row_h)
        return fit, row_h

    def visible_first(self, fit: int) -> int:
        first = min(self.first, self.selected)
        if self.selected >= first + fit:
            first = self.selected - fit + 1
        return max(0, first)

    # -- input -------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        title, listing, chart, buttons, text = self.areas(display_size())
        fit, row_h = self.list_geometry(listing, text)
        if event.type == pygame.KEYDOWN:
            key = event.key
            moves = {pygame.K_UP: -1, pygame.K_DOWN: 1, pygame.K_PAGEUP: -fit, pygame.K_PAGEDOWN: fit}
            letters = {
                pygame.K_l: self.next_level,
                pygame.K_r: self.next_result,
                pygame.K_m: self.train_mistakes,
                pygame.K_g: self.toggle_rating,
            }
            if key == pygame.K_ESCAPE:
                self.back()
            elif key in moves and self.records:
                self.selected = max(0, min(len(self.records) - 1, self.selected + moves[key]))
                self.first = self.visible_first(fit)
            elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.open_selected()
            elif key in letters:
                letters[key]()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if click_buttons(self.buttons, buttons, event):
                return
            if listing.collidepoint(event.pos):
                index = self.visible_first(fit) + (event.pos[1] - listing.top - 6) // row_h
                if 0 <= index < len(self.records):
                    if index == self.selected:
                        self.open_game(self.records[index])
                    self.selected = index
        elif event.type == pygame.MOUSEWHEEL and self.records:
            self.selected = max(0, min(len(self.records) - 1, self.selected - event.y))
            self.first = self.visible_first(fit)

    # -- drawing -----------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        p = theme.palette
        title, listing, chart, buttons, text = self.areas(surface.get_size())
        theme.text(surface, _("Past games"), text + 8, (title.centerx, title.top), bold=True, anchor="midtop")
        filters = ngettext("{count} game, newest first", "{count} games, newest first", len(self.records)).format(
            count=len(self.records)
        )
        if self.unreadable:  # before the filters: a narrow window cuts the end of the line
            filters += f" · {self.unreadable}"
        filters += _(" · level: {level_name} · result: {RESULT_NAMES}").format(
            level_name=self.level_name(self.level), RESULT_NAMES=_(RESULT_NAMES[self.result])
        )
        filters, fitted = theme.fitted(filters, text, title.width)
        theme.text(
            surface,
            filters,
            fitted,
            (title.centerx, title.top + text * self.app.theme.scale + 14),
            color=p.muted,
            anchor="midtop",
        )
        pygame.draw.rect(surface, p.panel, listing, border_radius=10)
        fit, row_h = self.list_geometry(listing, text)
        first = self.visible_first(fit)
        if not self.records:
            empty = _("No games here yet: every finished game is kept, the moment it ends.")
            if self.refusal:  # the path and the versions are in the toast; here, what it means
                empty = _(
                    "This version of the game cannot read its games from this archive; the file is left as it is."
                )
            empty, fitted = theme.fitted(empty, text, listing.width - 20)
            theme.text(surface, empty, fitted, listing.center, color=p.muted, anchor="center")
        for index in range(first, min(len(self.records), first + fit)):
            y = listing.top + 6 + (index - first) * row_h
            if index == self.selected:
                pygame.draw.rect(surface, p.hole, (listing.left + 4, y, listing.width - 8, row_h), border_radius=6)
            record = self.records[index]
            line, fitted = theme.fitted(game_line(record), text, listing.width - 24)
            theme.text(surface, line, fitted, (listing.left + 12, y + 4))
        if len(self.records) > fit:
            more = _("{first}-{min} of {count}").format(
                first=first + 1, min=min(len(self.records), first + fit), count=len(self.records)
            )
            theme.text(
                surface, more, text - 3, (listing.right - 10, listing.bottom - 4), color=p.muted, anchor="bottomright"
            )
        if self.show_rating:
            draw_rating_graph(surface, theme, chart, self.rated, text)
        else:
            self.draw_chart(surface, chart, text)
        for button, rect in zip(self.buttons, buttons):
            button.draw(surface, theme, rect=rect)

    def draw_chart(self, surface: pygame.Surface, chart: pygame.Rect, text: int) -> None:
        """Per level: a bar split into wins, draws and losses, and the latest results."""
        theme = self.app.theme
        p = theme.palette
        pygame.draw.rect(surface, p.panel, chart, border_radius=10)
        small = max(13, text - 2)
        colors = {"win": p.win, "draw": p.draw, "loss": p.lose}  # the column badges' (also outlined)
        x = chart.right - 10
        for key, word in (("loss", _("lost")), ("draw", _("drawn")), ("win", _("won"))):  # a legend, right to left
            label = theme.text(surface, word, small, (x, chart.top + 6), color=p.muted, anchor="topright")
            square = pygame.Rect(0, 0, small - 4, small - 4)
            square.midright = (label.left - 4, label.centery)
            draw_mark(surface, RESULT_MARKS[key], colors[key], square.center, square.height / 2, p.text)
            x = square.left - 12
        # The title left of the legend: smaller (as far as the 100 % size), else on two lines.
        said = _("You against each level: won / drawn / lost, then the latest games (oldest first). G: your rating")
        room = x - chart.left - 14
        title_size = theme.shrink(said, small, room)
        y: float = chart.top + 6
        for line in theme.wrap(said, title_size, room):
            theme.text(surface, line, title_size, (chart.left + 10, y), color=p.muted)
            y += theme.pitch(title_size, small + 4)
        if not self.stats:
            theme.text(
                surface,
                _("Play against the computer to fill this chart."),
                text,
                chart.center,
                color=p.muted,
                anchor="center",
            )
            return
        levels = list(self.stats)
        top = max(chart.top + small + 14, int(y) + 4)  # under the title
        row_h = max(12, min(28, (chart.bottom - 8 - top) // max(1, len(levels))))
        label_w = 110
        bar_w = int((chart.width - label_w - 30) * 0.5)
        strip_x = chart.left + label_w + bar_w + 30
        for index, level in enumerate(levels[: max(1, (chart.bottom - 8 - top) // row_h)]):
            y = top + index * row_h
            counts = self.stats[level]
            total = max(1, sum(counts.values()))
            name, fitted = theme.fitted(level, small, label_w - 8)
            theme.text(surface, name, fitted, (chart.left + 10, y + row_h // 2), anchor="midleft")
            x = chart.left + label_w
            for key in ("win", "draw", "loss"):
                width = round(bar_w * counts[key] / total)
                if width:
                    pygame.draw.rect(surface, colors[key], (x, y + 3, width, row_h - 6))
                    pygame.draw.rect(surface, p.text, (x, y + 3, width, row_h - 6), 1)
                x += width
            tally = f"{counts['win']}/{counts['draw']}/{counts['loss']}"
            theme.text(
                surface,
                tally,
                small,
                (chart.left + label_w + bar_w + 4, y + row_h // 2),
                anchor="midleft",
                color=p.text,
            )
            side = max(6, min(row_h - 6, (chart.right - strip_x - 70) // HISTORY - 2))
            for k, result in enumerate(self.history.get(level, [])):
                square = pygame.Rect(strip_x + 40 + k * (side + 2), y + (row_h - side) // 2, side, side)
                shape = RESULT_MARKS.get(result, "circle")
                draw_mark(surface, shape, colors.get(result, p.muted), square.center, side / 2, p.text)
