"""Retrieval quality: 30 fixed questions over the demo documents; the right document in the top 5 passages
for at least 80 % of them (the figure is printed)."""

from __future__ import annotations

from atrium.plugins.help.demo import documents

QUESTIONS: list[tuple[str, str, str]] = [
    ("en-us", "How do I change my password?", "signin"),
    ("en-us", "I forgot my password, how can I reset it?", "signin"),
    ("en-us", "Can I log in with an SMS code?", "signin"),
    ("en-us", "Why do I see a captcha picture when signing in?", "signin"),
    ("en-us", "Where are my pending approvals and upcoming tasks?", "portal"),
    ("en-us", "How do I get back to the portal from another system?", "portal"),
    ("en-us", "How do I apply for annual leave?", "leave"),
    ("en-us", "Can I edit a leave request after it was approved?", "leave"),
    ("en-us", "The partner site says the link is outdated", "partner"),
    ("en-us", "How do I mark all messages as read?", "letters"),
    ("en-us", "What does the number on the bell mean?", "letters"),
    ("en-us", "How can I import data from an Excel template?", "files"),
    ("en-us", "Where do I download my export when it is ready?", "files"),
    ("en-us", "How do I drill down in a chart?", "reports"),
    ("en-us", "Export chart data to Excel", "reports"),
    ("en-us", "How do I show the user's staff number in the watermark?", "watermark"),
    ("en-us", "Set my default page after login", "favourites"),
    ("en-us", "How do I add a page to favourites?", "favourites"),
    ("en-us", "Switch to dark mode", "theme"),
    ("en-us", "How do I change the language to Hungarian?", "theme"),
    ("zh-cn", "怎么修改密码？", "signin"),
    ("zh-cn", "如何申请年假？", "leave"),
    ("zh-cn", "怎样把消息全部标为已读？", "letters"),
    ("zh-cn", "如何从 Excel 导入数据？", "files"),
    ("zh-cn", "报表怎么下钻？", "reports"),
    ("zh-cn", "水印可以显示工号吗？", "watermark"),
    ("zh-cn", "如何切换租户？", "tenants"),
    ("zh-cn", "怎么提交反馈并上传截图？", "feedback"),
    ("zh-cn", "退出登录后聊天记录还在吗？", "assistant"),
    ("zh-cn", "怎么切换暗色主题？", "theme"),
]


def test_thirty_questions_top5_hit_rate(member):
    titles = {(loc, doc["title"]): item["key"] for item in documents() for loc, doc in item["docs"].items()}
    clients = {loc: member(locale=loc) for loc in ("en-us", "zh-cn")}
    assert len(QUESTIONS) == 30
    misses: list[str] = []
    for locale, question, expected in QUESTIONS:
        found = clients[locale].ok("GET", "/api/aigc/knowledge/search", params={"prompt": question, "top": 5})
        keys = [titles.get((locale, p["title"])) for p in found["passages"]]
        if expected not in keys:
            misses.append(f"{question} -> {keys}")
    rate = 1 - len(misses) / len(QUESTIONS)
    print(f"\nhelp retrieval: top-5 hit rate {rate:.2f} over {len(QUESTIONS)} questions; misses: {misses}")
    assert rate >= 0.8, misses
