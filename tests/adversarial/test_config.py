"""#10 point 10: pairing configuration is data, not code. Reference templates are a small
placeholder language; every mistake is one message naming the file and the key, and the server
starts and serves whatever the configuration holds."""

from __future__ import annotations

import pytest

from scorelens.pairing_rules import Template, TemplateError


@pytest.mark.parametrize(
    "text, expanded",
    [
        ("ref/{stem}.txt", "ref/call.hyp.txt"),
        ("{dir}/{name}.ref", "asr/call.hyp.txt.ref"),
        ("{stem}.ref.{ext}", "call.hyp.ref.txt"),
        ("{{literal}}-{stem}", "{literal}-call.hyp"),
        ("}}{{", "}{"),
        ("plain.txt", "plain.txt"),
    ],
)
def test_placeholders(text, expanded):
    values = {"stem": "call.hyp", "name": "call.hyp.txt", "ext": "txt", "dir": "asr"}
    assert Template.parse(text).expand(values) == expanded


@pytest.mark.parametrize(
    "text, reason",
    [
        ("{0}", "unknown placeholder {0}"),
        ("{foo}", "unknown placeholder {foo}"),
        ("{stem.__class__.__mro__}", "unknown placeholder {stem.__class__.__mro__}"),
        ("{stem:>999999999}", "unknown placeholder {stem:>999999999}"),
        ("{stem!r}", "unknown placeholder {stem!r}"),
        ("{stem[0]}", "unknown placeholder {stem[0]}"),
        ("{}", "unknown placeholder {}"),
        ("ref/{stem", "a lone '{' at character 4"),
        ("ref}", "a lone '}' at character 3"),
        ("ref\0.txt", "a NUL character"),
    ],
)
def test_anything_else_is_refused(text, reason):
    with pytest.raises(TemplateError) as caught:
        Template.parse(text)
    assert reason in str(caught.value)


def _scores_or_problems(server, uri):
    return server.diagnostics(uri, until=bool)


@pytest.mark.parametrize(
    "config_file, text, message",
    [
        (
            "scorelens.toml",
            '[[pair]]\nhypothesis = "asr/*.hyp.txt"\nreferences = ["asr/{0}.txt"]\n',
            "scorelens.toml: pair[0].references[0]: unknown placeholder {0}",
        ),
        (
            "scorelens.toml",
            '[[pair]]\nhypothesis = "asr/*.hyp.txt"\nreferences = ["{stem.__class__.__mro__}"]\n',
            "scorelens.toml: pair[0].references[0]: unknown placeholder {stem.__class__.__mro__}",
        ),
        (
            "scorelens.toml",
            '[[pair]]\nhypothesis = "asr/*.hyp.txt"\nreferences = ["{stem:>999999999}"]\n',
            "scorelens.toml: pair[0].references[0]: unknown placeholder {stem:>999999999}",
        ),
        (
            "scorelens.toml",
            '[[pair]]\nhypothesis = "asr/*.hyp.txt"\nreferences = ["a\\u0000b"]\n',
            "scorelens.toml: pair[0].references[0]: a NUL character",
        ),
        (
            "scorelens.toml",
            '[[pair]]\nhypothesis = "asr/*.hyp.txt"\nreferences = [5]\n',
            "scorelens.toml: pair[0].references[0]: must be a string, not int",
        ),
        ("scorelens.toml", 'pair = "x"\n', "scorelens.toml: pair: must be an array of tables"),
        ("scorelens.toml", "pair = [5]\n", "scorelens.toml: pair[0]: a pair is a table"),
        ("scorelens.toml", '[[pair]]\nhypothesis = ""\nreferences = ["x"]\n', "scorelens.toml: pair[0].hypothesis: must be a glob"),
        ("scorelens.toml", "[[pair]\n", "scorelens.toml: "),
        ("pyproject.toml", "tool = 5\n", "pyproject.toml: tool: not a table; ignored"),
        ("pyproject.toml", '[tool]\nscorelens = "x"\n', "pyproject.toml: tool.scorelens: not a table; ignored"),
        (
            "pyproject.toml",
            '[[tool.scorelens.pair]]\nhypothesis = "asr/*.hyp.txt"\nreferences = ["{foo}"]\n',
            "pyproject.toml: tool.scorelens.pair[0].references[0]: unknown placeholder {foo}",
        ),
    ],
)
def test_configuration_mistakes_are_one_message_and_the_server_serves(serve, workspace, config_file, text, message):
    (workspace / config_file).write_text(text, encoding="utf-8")
    server = serve()
    shown = server.wait_for(lambda m: m.get("method") == "window/showMessage" and config_file in m["params"]["message"], 20)
    assert str(workspace / message.split(":", 1)[0]) + ":" + message.split(":", 1)[1] in shown["params"]["message"]
    assert len([m for m in server.messages_shown() if config_file in m]) <= 2  # shown, and logged at most once
    # pairing by name still works
    uri = server.open(workspace / "asr" / "call.hyp.txt")
    assert any(d["code"] == "wer.substitution" for d in server.diagnostics(uri, until=bool))
    server.assert_alive()
    server.assert_never_said("__mro__>", "<class")


def test_a_good_template_pairs(serve, workspace):
    (workspace / "asr" / "other.txt").write_text((workspace / "asr" / "call.ref.txt").read_text(encoding="utf-8"), encoding="utf-8")
    (workspace / "scorelens.toml").write_text(
        '[[pair]]\nhypothesis = "asr/*.hyp.txt"\nreferences = ["{dir}/other.{ext}"]\n', encoding="utf-8"
    )
    server = serve()
    uri = server.open(workspace / "asr" / "call.hyp.txt")
    scores = server.wait_for(lambda m: m.get("method") == "scorelens/scores" and m["params"]["uri"] == uri and m["params"]["scores"])
    assert scores["params"]["references"] == [(workspace / "asr" / "other.txt").as_uri()]


@pytest.mark.parametrize(
    "params",
    [
        {"rootUri": "http://example.com/not-a-file", "workspaceFolders": None},
        {"rootUri": None, "workspaceFolders": [{"uri": "untitled:x", "name": "x"}]},
        {"rootUri": None, "rootPath": None, "workspaceFolders": None},
    ],
)
def test_initialize_never_fails(serve, params):
    server = serve(initialize=False)
    answer = server.request("initialize", {"processId": None, "capabilities": {}, **params})
    assert "result" in answer, answer
    server.notify("initialized", {})
    server.assert_alive()
