# The public names, for type checkers and for lazy_loader.attach_stub in __init__.py (``X as X``: re-exported).
from ._evaluator import Evaluation as Evaluation
from ._evaluator import evaluate as evaluate
from ._frames import read_qrels as read_qrels
from ._frames import read_run as read_run
from ._frames import read_svmlight as read_svmlight
from ._measures import ALIASES as ALIASES
from ._measures import CONVENTIONS as CONVENTIONS
from ._measures import Convention as Convention
from ._measures import Measure as Measure
from ._measures import get_convention as get_convention
from ._measures import parse_measures as parse_measures
from ._sources import InputError as InputError
from ._sources import NoJudgedQuery as NoJudgedQuery
