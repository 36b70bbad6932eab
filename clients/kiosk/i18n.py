"""The kiosk's words: message keys to text in English, French and Arabic.

The host never sends prose: outcomes, hand results and notices are message keys with
arguments, and the kiosk's own labels are keys too, so every word on the screen comes from
the tables below. A key missing from French or Arabic falls back to English (a test checks
that none is missing); a key unknown everywhere is shown as readable words, never as a crash.
Card ranks are drawn as French letters (V, D, R for the jack, queen and king) in French and
Arabic, as the President ruleset writes them.

Pure data and string formatting: no pygame, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter

LANGUAGES = ("en", "fr", "ar")
RTL_LANGUAGES = frozenset({"ar"})

EN: dict[str, str] = {
    # the shell
    "kiosk.waiting": "Waiting for a table…",
    "kiosk.waiting_hint": "Start one from a phone or with `tablebox tables new`",
    "kiosk.connecting": "Connecting to {host}…",
    "kiosk.reconnecting": "Reconnecting to {host}…",
    "kiosk.scan_to_join": "Scan to join",
    "kiosk.code": "Code",
    "kiosk.to_play": "{name} to play",
    "kiosk.to_play_many": "{names} to play",
    "kiosk.ai": "AI",
    "kiosk.ai_level": "AI · {level}",
    "kiosk.covering": "AI covers",
    "kiosk.disconnected": "disconnected",
    "kiosk.seat_free": "seat free",
    "kiosk.seat": "Seat {n}",
    "kiosk.game_over": "Game over",
    "kiosk.winner": "{names} wins",
    "kiosk.winners": "{names} win",
    "kiosk.draw": "Draw",
    "kiosk.finished": "Finished",
    "kiosk.closed": "Closed",
    "kiosk.score": "Score",
    "kiosk.points": "{n} pts",
    "kiosk.and": "{a} & {b}",
    "kiosk.table_count": "{n} tables",
    "kiosk.unknown_game": "This screen cannot draw {game} yet",
    "kiosk.round_over": "Round over",
    # AI levels
    "level.easy": "easy",
    "level.normal": "normal",
    "level.hard": "hard",
    "level.random": "random",
    # suits
    "suit.S": "spades",
    "suit.H": "hearts",
    "suit.D": "diamonds",
    "suit.C": "clubs",
    # Euchre
    "euchre.trump": "Trump",
    "euchre.maker": "Maker",
    "euchre.called_by": "called by {name}",
    "euchre.alone": "alone",
    "euchre.dealer": "Dealer",
    "euchre.tricks": "Tricks",
    "euchre.to": "to {n}",
    "euchre.hand": "Hand {n}",
    "euchre.hand_over": "Hand {n} over",
    "euchre.sitting_out": "sits out",
    "euchre.turned_up": "Turned up",
    "euchre.turned_down": "Turned down",
    "euchre.phase.deal": "Dealing",
    "euchre.phase.round_one": "Bidding: order up or pass",
    "euchre.phase.round_two": "Bidding: name a suit or pass",
    "euchre.phase.discard": "The dealer discards",
    "euchre.phase.defend_alone": "Defend alone?",
    "euchre.phase.play": "Playing",
    "euchre.phase.hand_over": "Hand over",
    "euchre.phase.game_over": "Game over",
    "euchre.bid.pass": "pass",
    "euchre.bid.order_up": "order up",
    "euchre.bid.name": "names {suit}",
    "euchre.result.thrown_in": "Everyone passed: hand thrown in",
    "euchre.result.made": "{side} made it: {points} point",
    "euchre.result.made_alone": "{side} made it alone: {points} point",
    "euchre.result.march": "{side} took all five: {points} points",
    "euchre.result.march_alone": "{side} took all five alone: {points} points",
    "euchre.result.euchred": "{side} euchred the makers: {points} points",
    "euchre.result.euchred_alone": "{side} euchred a lone maker: {points} points",
    "euchre.reached_target": "First side to {target} points",
    "euchre.card.right_bower": "right bower",
    "euchre.card.left_bower": "left bower",
    # President
    "president.round": "Round {n} of {of}",
    "president.round_open": "Round {n}",
    "president.revolution": "Revolution!",
    "president.order": "Order",
    "president.passed": "passed",
    "president.out": "out",
    "president.pile_empty": "New trick: any rank leads",
    "president.exchange": "Exchanging cards",
    "president.total": "Total",
    "president.title.president": "President",
    "president.title.vice_president": "Vice-President",
    "president.title.citizen": "Citizen",
    "president.title.vice_scum": "Vice-Scum",
    "president.title.scum": "Scum",
    "president.most_points": "Most points after the last round",
    "president.tie_broken_by_last_round": "Equal points: the last round decides",
    # Sequence
    "sequence.sequences": "Sequences",
    "sequence.needed": "{n} to win",
    "sequence.deck": "Deck",
    "sequence.last_move": "Last move",
    "sequence.removed": "removed a chip",
    "sequence.captures": "{n} captured",
    "sequence.in_hand": "{n} cards in hand",
    "sequence.won_by_captures": "Chips captured",
    "sequence.no_moves": "No one can move",
    "sequence.board_full": "The board is full",
    "sequence.card.wild": "wild",
    "sequence.card.remove": "remove",
    "sequence.card.dead": "dead card",
    "sequence.placed": "placed a chip",
    "sequence.dead_card": "dead card",
    "sequence.won_by_sequences": "Sequences completed",
}

FR: dict[str, str] = {
    "kiosk.waiting": "En attente d’une table…",
    "kiosk.waiting_hint": "Lancez-en une depuis un téléphone ou avec `tablebox tables new`",
    "kiosk.connecting": "Connexion à {host}…",
    "kiosk.reconnecting": "Reconnexion à {host}…",
    "kiosk.scan_to_join": "Scannez pour jouer",
    "kiosk.code": "Code",
    "kiosk.to_play": "À {name} de jouer",
    "kiosk.to_play_many": "À {names} de jouer",
    "kiosk.ai": "IA",
    "kiosk.ai_level": "IA · {level}",
    "kiosk.covering": "IA en renfort",
    "kiosk.disconnected": "déconnecté",
    "kiosk.seat_free": "place libre",
    "kiosk.seat": "Place {n}",
    "kiosk.game_over": "Partie terminée",
    "kiosk.winner": "{names} gagne",
    "kiosk.winners": "{names} gagnent",
    "kiosk.draw": "Égalité",
    "kiosk.finished": "Terminée",
    "kiosk.closed": "Fermée",
    "kiosk.score": "Score",
    "kiosk.points": "{n} pts",
    "kiosk.and": "{a} et {b}",
    "kiosk.table_count": "{n} tables",
    "kiosk.unknown_game": "Cet écran ne sait pas encore afficher {game}",
    "kiosk.round_over": "Manche terminée",
    "level.easy": "facile",
    "level.normal": "normal",
    "level.hard": "difficile",
    "level.random": "au hasard",
    "suit.S": "pique",
    "suit.H": "cœur",
    "suit.D": "carreau",
    "suit.C": "trèfle",
    "euchre.trump": "Atout",
    "euchre.maker": "Preneur",
    "euchre.called_by": "choisi par {name}",
    "euchre.alone": "seul",
    "euchre.dealer": "Donneur",
    "euchre.tricks": "Plis",
    "euchre.to": "en {n} points",
    "euchre.hand": "Donne {n}",
    "euchre.hand_over": "Fin de la donne {n}",
    "euchre.sitting_out": "ne joue pas",
    "euchre.turned_up": "Retournée",
    "euchre.turned_down": "Refusée",
    "euchre.phase.deal": "Distribution",
    "euchre.phase.round_one": "Enchères : prendre ou passer",
    "euchre.phase.round_two": "Enchères : nommer une couleur ou passer",
    "euchre.phase.discard": "Le donneur écarte",
    "euchre.phase.defend_alone": "Défendre seul ?",
    "euchre.phase.play": "Jeu de la carte",
    "euchre.phase.hand_over": "Donne terminée",
    "euchre.phase.game_over": "Partie terminée",
    "euchre.bid.pass": "passe",
    "euchre.bid.order_up": "prend",
    "euchre.bid.name": "nomme {suit}",
    "euchre.result.thrown_in": "Tout le monde a passé : donne annulée",
    "euchre.result.made": "Contrat réussi par {side} : {points} point",
    "euchre.result.made_alone": "Contrat réussi en solo par {side} : {points} point",
    "euchre.result.march": "Les cinq plis pour {side} : {points} points",
    "euchre.result.march_alone": "Les cinq plis en solo pour {side} : {points} points",
    "euchre.result.euchred": "Preneurs chutés par {side} : {points} points",
    "euchre.result.euchred_alone": "Preneur solo chuté par {side} : {points} points",
    "euchre.reached_target": "Premier camp à {target} points",
    "euchre.card.right_bower": "valet d’atout",
    "euchre.card.left_bower": "valet de même couleur",
    "president.round": "Manche {n} sur {of}",
    "president.round_open": "Manche {n}",
    "president.revolution": "Révolution !",
    "president.order": "Ordre",
    "president.passed": "passe",
    "president.out": "sorti",
    "president.pile_empty": "Nouveau pli : toute valeur peut ouvrir",
    "president.exchange": "Échange de cartes",
    "president.total": "Total",
    "president.title.president": "Président",
    "president.title.vice_president": "Vice-Président",
    "president.title.citizen": "Neutre",
    "president.title.vice_scum": "Vice-Pauvre",
    "president.title.scum": "Pauvre",
    "president.most_points": "Le plus de points après la dernière manche",
    "president.tie_broken_by_last_round": "Égalité de points : la dernière manche départage",
    "sequence.sequences": "Séquences",
    "sequence.needed": "{n} pour gagner",
    "sequence.deck": "Pioche",
    "sequence.last_move": "Dernier coup",
    "sequence.removed": "a retiré un jeton",
    "sequence.captures": "{n} capturés",
    "sequence.in_hand": "{n} cartes en main",
    "sequence.won_by_captures": "Jetons capturés",
    "sequence.no_moves": "Personne ne peut jouer",
    "sequence.board_full": "Le plateau est plein",
    "sequence.card.wild": "joker",
    "sequence.card.remove": "retrait",
    "sequence.card.dead": "carte morte",
    "sequence.placed": "a posé un jeton",
    "sequence.dead_card": "carte morte",
    "sequence.won_by_sequences": "Séquences complétées",
}

AR: dict[str, str] = {
    "kiosk.waiting": "في انتظار طاولة…",
    "kiosk.waiting_hint": "ابدأ طاولة من الهاتف أو بالأمر `tablebox tables new`",
    "kiosk.connecting": "جارٍ الاتصال بـ {host}…",
    "kiosk.reconnecting": "جارٍ إعادة الاتصال بـ {host}…",
    "kiosk.scan_to_join": "امسح الرمز للانضمام",
    "kiosk.code": "الرمز",
    "kiosk.to_play": "دور {name}",
    "kiosk.to_play_many": "دور {names}",
    "kiosk.ai": "الحاسوب",
    "kiosk.ai_level": "الحاسوب · {level}",
    "kiosk.covering": "الحاسوب ينوب",
    "kiosk.disconnected": "غير متصل",
    "kiosk.seat_free": "مقعد متاح",
    "kiosk.seat": "المقعد {n}",
    "kiosk.game_over": "انتهت اللعبة",
    "kiosk.winner": "الفائز: {names}",
    "kiosk.winners": "الفائزون: {names}",
    "kiosk.draw": "تعادل",
    "kiosk.finished": "انتهت",
    "kiosk.closed": "مغلقة",
    "kiosk.score": "النتيجة",
    "kiosk.points": "{n} نقاط",
    "kiosk.and": "{a} و{b}",
    "kiosk.table_count": "{n} طاولات",
    "kiosk.unknown_game": "لا تستطيع هذه الشاشة عرض {game} بعد",
    "kiosk.round_over": "انتهت الجولة",
    "level.easy": "سهل",
    "level.normal": "عادي",
    "level.hard": "صعب",
    "level.random": "عشوائي",
    "suit.S": "البستوني",
    "suit.H": "الكبة",
    "suit.D": "الديناري",
    "suit.C": "السباتي",
    "euchre.trump": "الحكم",
    "euchre.maker": "المُعلِن",
    "euchre.called_by": "أعلنه {name}",
    "euchre.alone": "منفردًا",
    "euchre.dealer": "الموزّع",
    "euchre.tricks": "الأكلات",
    "euchre.to": "إلى {n}",
    "euchre.hand": "التوزيع {n}",
    "euchre.hand_over": "انتهى التوزيع {n}",
    "euchre.sitting_out": "خارج اللعب",
    "euchre.turned_up": "الورقة المكشوفة",
    "euchre.turned_down": "رُفضت",
    "euchre.phase.deal": "التوزيع",
    "euchre.phase.round_one": "المزايدة: اقبل أو مرّر",
    "euchre.phase.round_two": "المزايدة: سمِّ لونًا أو مرّر",
    "euchre.phase.discard": "الموزّع يرمي ورقة",
    "euchre.phase.defend_alone": "الدفاع منفردًا؟",
    "euchre.phase.play": "اللعب",
    "euchre.phase.hand_over": "انتهى التوزيع",
    "euchre.phase.game_over": "انتهت اللعبة",
    "euchre.bid.pass": "تمرير",
    "euchre.bid.order_up": "قبول",
    "euchre.bid.name": "يسمّي {suit}",
    "euchre.result.thrown_in": "مرّر الجميع: أُلغي التوزيع",
    "euchre.result.made": "نجح {side}: {points} نقطة",
    "euchre.result.made_alone": "نجح {side} منفردًا: {points} نقطة",
    "euchre.result.march": "أخذ {side} الأكلات الخمس: {points} نقاط",
    "euchre.result.march_alone": "أخذ {side} الأكلات الخمس منفردًا: {points} نقاط",
    "euchre.result.euchred": "أسقط {side} المُعلِنين: {points} نقاط",
    "euchre.result.euchred_alone": "أسقط {side} المُعلِن المنفرد: {points} نقاط",
    "euchre.reached_target": "أول فريق يبلغ {target} نقاط",
    "euchre.card.right_bower": "الولد الأيمن",
    "euchre.card.left_bower": "الولد الأيسر",
    "president.round": "الجولة {n} من {of}",
    "president.round_open": "الجولة {n}",
    "president.revolution": "الثورة!",
    "president.order": "الترتيب",
    "president.passed": "تمرير",
    "president.out": "خرج",
    "president.pile_empty": "أكلة جديدة: أي رتبة تبدأ",
    "president.exchange": "تبادل الأوراق",
    "president.total": "المجموع",
    "president.title.president": "الرئيس",
    "president.title.vice_president": "نائب الرئيس",
    "president.title.citizen": "مواطن",
    "president.title.vice_scum": "نائب المؤخرة",
    "president.title.scum": "المؤخرة",
    "president.most_points": "أكثر النقاط بعد الجولة الأخيرة",
    "president.tie_broken_by_last_round": "تعادل في النقاط: تحسم الجولة الأخيرة",
    "sequence.sequences": "السلاسل",
    "sequence.needed": "{n} للفوز",
    "sequence.deck": "الكومة",
    "sequence.last_move": "آخر حركة",
    "sequence.removed": "أزال قطعة",
    "sequence.captures": "{n} مأسورة",
    "sequence.in_hand": "{n} أوراق في اليد",
    "sequence.won_by_captures": "أُسرت القطع",
    "sequence.no_moves": "لا أحد يستطيع اللعب",
    "sequence.board_full": "امتلأت اللوحة",
    "sequence.card.wild": "جوكر",
    "sequence.card.remove": "إزالة",
    "sequence.card.dead": "ورقة ميتة",
    "sequence.placed": "وضع قطعة",
    "sequence.dead_card": "ورقة ميتة",
    "sequence.won_by_sequences": "اكتملت السلاسل",
}

CATALOGUES: dict[str, dict[str, str]] = {"en": EN, "fr": FR, "ar": AR}

# Card ranks as drawn on a card face; "T" is always shown as 10.
_RANKS_EN = {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
_RANKS_FR = {"T": "10", "J": "V", "Q": "D", "K": "R", "A": "A"}
RANK_LABELS: dict[str, dict[str, str]] = {"en": _RANKS_EN, "fr": _RANKS_FR, "ar": _RANKS_FR}


class _Args(dict[str, object]):
    """Formatting arguments that leave an unknown ``{name}`` visible instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def humanize(key: str) -> str:
    """A readable fallback for a key no catalogue knows: its last part, as words."""
    last = key.rsplit(".", 1)[-1]
    return last.replace("_", " ").strip().capitalize() or key


class Translator:
    """Text for one language. ``t(key, **args)`` never raises."""

    def __init__(self, lang: str = "en") -> None:
        if lang not in CATALOGUES:
            raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
        self.lang = lang
        self.rtl = lang in RTL_LANGUAGES
        self._table = CATALOGUES[lang]
        self._ranks = RANK_LABELS[lang]

    def has(self, key: str) -> bool:
        return key in self._table or key in EN

    def t(self, key: str, args: Mapping[str, object] | None = None, **kw: object) -> str:
        template = self._table.get(key) or EN.get(key)
        if template is None:
            return humanize(key)
        values = _Args(args or {})
        values.update(kw)
        try:
            return Formatter().vformat(template, (), values)
        except (ValueError, IndexError):  # a malformed template must not stop the screen
            return template

    def rank(self, rank: str) -> str:
        """The label drawn for a rank character (``"T"`` -> ``"10"``, ``"Q"`` -> ``"D"`` in French)."""
        return self._ranks.get(rank, rank)

    def card(self, code: str) -> str:
        """A card code as short text, ``"QH"`` -> ``"Q♥"`` (``"D♥"`` in French)."""
        if len(code) != 2:
            return code
        return self.rank(code[0]) + SUIT_SYMBOLS.get(code[1], code[1])

    def join_names(self, names: list[str]) -> str:
        if not names:
            return ""
        if len(names) == 1:
            return names[0]
        sep = "، " if self.rtl else ", "
        return self.t("kiosk.and", a=sep.join(names[:-1]), b=names[-1])


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
