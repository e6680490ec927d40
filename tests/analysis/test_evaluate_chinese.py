"""BLEU of Chinese output: sacreBLEU's zh tokenizer, which splits characters, where 13a would
read a whole Chinese sentence as one word."""

from attnviz.analysis.evaluate import bleu, bleu_statistics


def test_chinese_output_is_scored_by_characters():
    hyps, refs = ["我爱你。"], [["我很爱你。"]]
    score, signature = bleu(hyps, refs, target="zh")
    assert "tok:zh" in signature and 0 < score < 100  # most characters match
    assert bleu(hyps, refs)[0] == 0.0  # 13a: one unmatched "word"
    assert "tok:13a" in bleu(["I love you ."], [["I love you ."]], target="fr")[1]


def test_the_sufficient_statistics_sum_to_the_same_chinese_score():
    hyps = ["我爱你。", "他昨天去了图书馆。", "今天很好。"]
    refs = [["我爱你。"], ["他昨天去图书馆了。"], ["今天天气很好。"]]
    stats = bleu_statistics(hyps, refs, target="zh")
    assert abs(stats.score(stats.counts.sum(0)) - bleu(hyps, refs, target="zh")[0]) < 1e-9
