"""The widgets' HTML, from Jinja2 templates (``templates/``, one per widget, named for it) with
autoescape on, as the handout's pages are (:mod:`attnviz.handout.page`): every word from a
sentence, the corpus or a catalog is escaped where a template writes it. Callers pass plain
values, numbers already formatted; HTML another template rendered goes in through
:func:`rendered`, the one place anything skips autoescape.

Each template is compiled once, on first use: the step view redraws its widgets at every step.
"""

from __future__ import annotations

from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined, Template
from markupsafe import Markup


@cache
def _environment() -> Environment:
    """Undefined names raise, so a misspelt one cannot leave a hole in a widget; the templates
    are read once (no reload check at each use)."""
    return Environment(
        loader=PackageLoader("attnviz_ui.widgets"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )


@cache
def _template(name: str) -> Template:
    return _environment().get_template(f"{name}.html")


def render(name: str, **values) -> str:
    """The widget ``name`` (``templates/<name>.html``) drawn with ``values``, each escaped."""
    return _template(name).render(**values)


def rendered(html: str) -> Markup:
    """``html`` embedded in another template as it is: only for what :func:`render` returned,
    whose values its own template already escaped (escaping it again would show its tags as
    text); never for a word from a user, the corpus or a catalog."""
    return Markup(html)
