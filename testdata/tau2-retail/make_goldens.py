#!/usr/bin/env python3
"""Writes goldens.jsonl: what tau2-bench's own retail tools answer, for the Java port to match.

Run from anywhere, with Python 3.10+ and pydantic 2 (the only package tau2's retail code
needs here):

    python3 testdata/tau2-retail/make_goldens.py

It loads tau2's code from src/ beside this file (tools.py, data_model.py, utils.py, copied from
tau2-bench unchanged) and stands in for the few tau2 modules those import: tau2.utils.utils
(DATA_DIR), tau2.environment.db (DB.load), tau2.environment.toolkit (ToolKitBase, ToolType,
is_tool). A tool's answer is made as tau2's Environment.get_response makes it: the tool is
called with the arguments as keyword arguments; an exception becomes the text
"Error: <message>" with error true; the result goes through Environment.to_json_str (a
string as it is, a pydantic model as json.dumps(model_dump()), lists, dicts and numbers
likewise). Each session starts on a fresh copy of db.json.

Every line of goldens.jsonl is one call:
    {"session": NAME, "tool": T, "arguments": {...}, "text": TEXT, "error": BOOL}
Lines of one session are consecutive; the bulk session of every record's reads gives
"sha256" (of the UTF-8 text) in place of "text", to keep the file small.
"""

import hashlib
import importlib.util
import json
import sys
import types
from enum import Enum
from pathlib import Path

from pydantic import BaseModel

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
DB_PATH = HERE / "db.json"
TASKS_PATH = HERE / "tasks-train.json"
OUT = HERE / "goldens.jsonl"


# --- stand-ins for the tau2 modules the retail code imports -------------------------------

def _module(name, **attrs):
    m = types.ModuleType(name)
    m.__path__ = []  # a package, so that submodules can be imported under it
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m


class DB(BaseModel):
    """tau2.environment.db.DB: a pydantic model loaded from a JSON file."""

    @classmethod
    def load(cls, path):
        with open(path, encoding="utf-8") as f:
            return cls.model_validate(json.load(f))


class ToolType(str, Enum):
    READ = "read"
    WRITE = "write"
    THINK = "think"
    GENERIC = "generic"


def is_tool(tool_type=ToolType.READ, mutates_state=None):
    def decorator(func):
        func.__tool__ = True
        func.__tool_type__ = tool_type
        return func

    return decorator


class ToolKitBase:
    def __init__(self, db=None):
        self.db = db

    def tool_names(self):
        return [n for n in dir(type(self)) if getattr(getattr(type(self), n), "__tool__", False)]


for name in ["tau2", "tau2.utils", "tau2.environment", "tau2.domains", "tau2.domains.retail"]:
    _module(name)
_module("tau2.utils.utils", DATA_DIR=HERE)
_module("tau2.environment.db", DB=DB)
_module("tau2.environment.toolkit", ToolKitBase=ToolKitBase, ToolType=ToolType, is_tool=is_tool)


def _load(name, file):
    spec = importlib.util.spec_from_file_location(name, SRC / file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_load("tau2.domains.retail.utils", "utils.py")
data_model = _load("tau2.domains.retail.data_model", "data_model.py")
tools_module = _load("tau2.domains.retail.tools", "tools.py")


# --- tau2's Environment.to_json_str and get_response, as they behave -----------------------

def to_json_str(resp):
    def process(r):
        if isinstance(r, BaseModel):
            return r.model_dump()
        if isinstance(r, str) or r is None:
            return r
        if isinstance(r, (int, float, bool)):
            return str(r)
        if isinstance(r, list):
            return [process(x) for x in r]
        if isinstance(r, tuple):
            return tuple(process(x) for x in r)
        if isinstance(r, dict):
            return {k: process(v) for k, v in r.items()}
        raise ValueError(f"Unsupported type: {type(r)}")

    if not isinstance(resp, str):
        return json.dumps(process(resp), default=str)
    return resp


class Session:
    def __init__(self, name):
        self.name = name
        self.tools = tools_module.RetailTools(data_model.RetailDB.load(DB_PATH))
        self.names = set(self.tools.tool_names())

    def call(self, tool, arguments):
        error = False
        try:
            if tool not in self.names:
                raise ValueError(f"Tool '{tool}' not found.")
            resp = getattr(self.tools, tool)(**arguments)
        except Exception as e:  # noqa: BLE001 - tau2 catches every exception the same way
            resp = f"Error: {e}"
            error = True
        return to_json_str(resp), error


# --- the sessions ------------------------------------------------------------------------

lines = []


def run(name, calls, hashed=False):
    session = Session(name)
    for tool, arguments in calls:
        text, error = session.call(tool, arguments)
        line = {"session": name, "tool": tool, "arguments": arguments}
        if hashed:
            line["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
        else:
            line["text"] = text
        line["error"] = error
        lines.append(line)


db = json.loads(DB_PATH.read_text(encoding="utf-8"))
users, orders, products = db["users"], db["orders"], db["products"]

# Every expert action of every train task, in order, each task on a fresh database.
for task in json.loads(TASKS_PATH.read_text(encoding="utf-8")):
    run("task " + task["id"], [(a["name"], a["arguments"]) for a in task["evaluation_criteria"]["actions"]])

# Every record read once: the serialisation of the whole database.
bulk = []
for uid, u in users.items():
    bulk.append(("get_user_details", {"user_id": uid}))
    bulk.append(("find_user_id_by_email", {"email": u["email"]}))
    bulk.append(("find_user_id_by_name_zip", {"first_name": u["name"]["first_name"],
                                              "last_name": u["name"]["last_name"], "zip": u["address"]["zip"]}))
for oid in orders:
    bulk.append(("get_order_details", {"order_id": oid}))
for pid, p in products.items():
    bulk.append(("get_product_details", {"product_id": pid}))
    for iid in p["variants"]:
        bulk.append(("get_item_details", {"item_id": iid}))
bulk.append(("list_all_product_types", {}))
run("every record", bulk, hashed=True)


def first(pred, items):
    return next(x for x in items if pred(x))


def method_of(user, source):
    return next((k for k, v in user["payment_methods"].items() if v["source"] == source), None)


def gift_balance(user):
    k = method_of(user, "gift_card")
    return user["payment_methods"][k]["balance"] if k else None


def variant_choices(order, item):
    """Other variants of an order item's product: (available, unavailable) item ids."""
    variants = products[item["product_id"]]["variants"]
    avail = [k for k, v in variants.items() if k != item["item_id"] and v["available"]]
    unavail = [k for k, v in variants.items() if k != item["item_id"] and not v["available"]]
    return avail, unavail


def other_product_item(item):
    for p in products.values():
        if p["product_id"] != item["product_id"]:
            return next(iter(p["variants"]))


pending = [o for o in orders.values() if o["status"] == "pending"]
delivered = [o for o in orders.values() if o["status"] == "delivered"]
processed = first(lambda o: o["status"] == "processed", orders.values())
cancelled = first(lambda o: o["status"] == "cancelled", orders.values())

# A pending order paid by gift card, whose user has a credit card too.
gc_pending = first(lambda o: o["payment_history"][0]["payment_method_id"].startswith("gift_card")
                   and method_of(users[o["user_id"]], "credit_card"), pending)
# A pending order paid by credit card, whose user has a gift card too (and one with two items).
cc_pending = first(lambda o: o["payment_history"][0]["payment_method_id"].startswith("credit_card")
                   and method_of(users[o["user_id"]], "gift_card") and len(o["items"]) >= 2
                   and all(variant_choices(o, i)[0] for i in o["items"][:2]), pending)
# A pending order whose user's gift card cannot pay for it; one whose can.
poor_gc = first(lambda o: gift_balance(users[o["user_id"]]) is not None
                and not o["payment_history"][0]["payment_method_id"].startswith("gift_card")
                and gift_balance(users[o["user_id"]]) < o["payment_history"][0]["amount"], pending)
rich_gc = first(lambda o: gift_balance(users[o["user_id"]]) is not None
                and not o["payment_history"][0]["payment_method_id"].startswith("gift_card")
                and gift_balance(users[o["user_id"]]) >= o["payment_history"][0]["amount"], pending)
# A delivered order with two items, paid by credit card, whose user has a gift card.
dl = first(lambda o: len(o["items"]) >= 2 and method_of(users[o["user_id"]], "gift_card")
           and o["payment_history"][0]["payment_method_id"].startswith("credit_card")
           and all(variant_choices(o, i)[0] for i in o["items"][:2])
           and any(variant_choices(o, i)[1] for i in o["items"]), delivered)
dl_user = users[dl["user_id"]]
other_user = first(lambda u: u["user_id"] != dl["user_id"], users.values())
some_user = next(iter(users.values()))

run("reads and their errors", [
    ("find_user_id_by_email", {"email": some_user["email"].upper()}),
    ("find_user_id_by_email", {"email": "nobody@example.com"}),
    ("find_user_id_by_name_zip", {"first_name": some_user["name"]["first_name"].upper(),
                                  "last_name": some_user["name"]["last_name"].lower(),
                                  "zip": some_user["address"]["zip"]}),
    ("find_user_id_by_name_zip", {"first_name": some_user["name"]["first_name"],
                                  "last_name": some_user["name"]["last_name"], "zip": "00000"}),
    ("get_user_details", {"user_id": "nobody_0000"}),
    ("get_order_details", {"order_id": "W0000000"}),
    ("get_order_details", {"order_id": processed["order_id"]}),
    ("get_product_details", {"product_id": "0000000000"}),
    ("get_product_details", {"product_id": next(iter(next(iter(products.values()))["variants"]))}),
    ("get_item_details", {"item_id": "0000000000"}),
    ("list_all_product_types", {}),
    ("transfer_to_human_agents", {"summary": "The customer wants a refund in cash."}),
    ("no_such_tool", {}),
    # Arguments as Python binds them: missing, unexpected, both.
    ("get_user_details", {}),
    ("get_user_details", {"user_id": some_user["user_id"], "verbose": "yes"}),
    ("get_user_details", {"verbose": "yes"}),
    ("find_user_id_by_name_zip", {"first_name": "Noah"}),
    ("find_user_id_by_name_zip", {}),
    ("modify_user_address", {"user_id": some_user["user_id"]}),
    ("list_all_product_types", {"page": "2"}),
    ("cancel_pending_order", {"reason": "no longer needed"}),
])

EXPRESSIONS = [
    "2 + 2", "3131.1 + 4777.75 + 367.38", "155.33 - 147.05 + 268.77 - 235.13", "135.24 - 153.23",
    "0.1 + 0.2", "1 / 3", "2 / 3", "10 / 4", "7 // 2", "-7 // 2", "7.5 // 2", "-7.5 // -2", "7 // -2",
    "2 ** 10", "2 ** -1", "-2 ** 2", "2 ** 2 ** 3", "(-2) ** -1", "4 ** 0.5", "2 ** 0.5", "2.5 ** -1",
    "2 ** 1000", "10 ** 309 / 10 ** 308", "1 / 10 ** 400", "(2 ** 1023) * 2.0",
    "1" + "0" * 400 + ".0", "-0.001", "-0.0", "0 * -1.0", "((((1))))", "--1", "+-+1", "  1", "1  ",
    ".5", "1.", "0.", "00", "01.5", "00.5", "1234567.891", "123456789012345678", "0.000012345",
    "1000000 * 1000000 * 10000", "99999.995", "2.675", "1.005", "0.125", "0.375", "-2.5", "1e5", "2 x 3",
    "", " ", "1 +", "1 2", "(1", "1)", "()", "5(3)", "(1)(2)", "1()", "1.5(2)", "()()", "1..2", "01",
    "1 + 01", "(01", "1.2.3", "*1", "1 **", "1 // 0", "1.0 // 0", "5.0 // 0.0", "1 / 0", "1.0 / 0",
    "0 ** -1", "0.0 ** -1", "(-0.0) ** -1", "(-8) ** 0.5", "(-8) ** (1 / 3)", "10 ** 400",
    "2.0 ** 10000", "2 ** 1023 * 2", "1 2 (", "1 2 )", ") 1 (", "1 .5", "1 (", "((1)", "1))",
    "()*2", "2*()", "()+()", "-()", "+()", "()**2", "2**()", "1+()", "()+1", "()-1", "1-()", "()/1",
    "()//1", "()*1.5", "(1/0)(2)", "5(1/0)", "1+*2", "1*/2", "/1", "+", "-", "1-", ". 5", "1 . 2",
    "(1 2)", "2 3 4", "()1", "1 ()", "(1)(2 3)", "1 + + 2", "-(-(1))", "3 ** -2", "(-2) ** 2", "(-2) ** 3",
    "(-2.0) ** 0.5 * 0", "1 / 3 * 3", "2 ** 1024", "(-8) ** 0.5 // 1", "(-8) ** 0.5 / 0", "0 ** 0", "0.0 ** 0.5",
    "123456789 * 987654321", "1 / 7", "22 / 7", "1000000000000000000000 / 3", "5 // 0.5", "-5 // 0.3",
    "2 ** 0.1 ** 3", "99.995 + 0", "0.005", "0.015", "-0.005", "1.0000000000000002", "4.35 * 100",
]
run("calculate", [("calculate", {"expression": e}) for e in EXPRESSIONS])

a_item, b_item = cc_pending["items"][0], cc_pending["items"][1]
a_new = variant_choices(cc_pending, a_item)[0][0]
b_new = variant_choices(cc_pending, b_item)[0][0]
cc_user = users[cc_pending["user_id"]]
gc_pending_user = users[gc_pending["user_id"]]
run("pending orders", [
    ("cancel_pending_order", {"order_id": "#W0000000", "reason": "no longer needed"}),
    ("cancel_pending_order", {"order_id": delivered[0]["order_id"], "reason": "no longer needed"}),
    ("cancel_pending_order", {"order_id": gc_pending["order_id"], "reason": "found it cheaper"}),
    ("cancel_pending_order", {"order_id": gc_pending["order_id"], "reason": "ordered by mistake"}),
    ("get_user_details", {"user_id": gc_pending["user_id"]}),
    ("cancel_pending_order", {"order_id": gc_pending["order_id"], "reason": "ordered by mistake"}),
    ("modify_pending_order_address", {"order_id": gc_pending["order_id"], "address1": "1 Main St", "address2": "",
                                      "city": "Austin", "state": "TX", "country": "USA", "zip": "78701"}),
    ("modify_pending_order_items", {"order_id": cc_pending["order_id"], "item_ids": ["0000000000"],
                                    "new_item_ids": [a_new], "payment_method_id": method_of(cc_user, "credit_card")}),
    ("modify_pending_order_items", {"order_id": cc_pending["order_id"], "item_ids": [a_item["item_id"]] * 5,
                                    "new_item_ids": [a_new] * 5, "payment_method_id": method_of(cc_user, "credit_card")}),
    ("modify_pending_order_items", {"order_id": cc_pending["order_id"], "item_ids": [a_item["item_id"]],
                                    "new_item_ids": [], "payment_method_id": method_of(cc_user, "credit_card")}),
    ("modify_pending_order_items", {"order_id": cc_pending["order_id"], "item_ids": [a_item["item_id"]],
                                    "new_item_ids": [a_item["item_id"]], "payment_method_id": method_of(cc_user, "credit_card")}),
    ("modify_pending_order_items", {"order_id": cc_pending["order_id"], "item_ids": [a_item["item_id"]],
                                    "new_item_ids": [other_product_item(a_item)],
                                    "payment_method_id": method_of(cc_user, "credit_card")}),
    ("modify_pending_order_items", {"order_id": cc_pending["order_id"], "item_ids": [a_item["item_id"]],
                                    "new_item_ids": [a_new], "payment_method_id": "credit_card_0000000"}),
    ("modify_pending_order_payment", {"order_id": cc_pending["order_id"], "payment_method_id": "paypal_0000000"}),
    ("modify_pending_order_payment", {"order_id": cc_pending["order_id"],
                                      "payment_method_id": cc_pending["payment_history"][0]["payment_method_id"]}),
    ("modify_pending_order_payment", {"order_id": delivered[0]["order_id"], "payment_method_id": "paypal_0000000"}),
    # Two items at once: tau2 writes the last new variant's price and options into both.
    ("modify_pending_order_items", {"order_id": cc_pending["order_id"], "item_ids": [a_item["item_id"], b_item["item_id"]],
                                    "new_item_ids": [a_new, b_new], "payment_method_id": method_of(cc_user, "gift_card")}),
    ("get_user_details", {"user_id": cc_pending["user_id"]}),
    ("modify_pending_order_items", {"order_id": cc_pending["order_id"], "item_ids": [a_new],
                                    "new_item_ids": [a_item["item_id"]], "payment_method_id": method_of(cc_user, "gift_card")}),
    ("cancel_pending_order", {"order_id": cc_pending["order_id"], "reason": "no longer needed"}),
    ("modify_pending_order_address", {"order_id": cc_pending["order_id"], "address1": "12 \"Quoted\" Rd\\", "address2": "Apt \u00e9\u4e2d\U0001f600\n",
                                      "city": "S\u00e3o Paulo", "state": "SP", "country": "Brazil", "zip": "01000-000"}),
    ("modify_pending_order_payment", {"order_id": cc_pending["order_id"], "payment_method_id": method_of(cc_user, "credit_card")}),
    ("get_order_details", {"order_id": cc_pending["order_id"]}),
    ("modify_pending_order_payment", {"order_id": poor_gc["order_id"], "payment_method_id": method_of(users[poor_gc["user_id"]], "gift_card")}),
    ("modify_pending_order_payment", {"order_id": rich_gc["order_id"], "payment_method_id": method_of(users[rich_gc["user_id"]], "gift_card")}),
    ("get_user_details", {"user_id": rich_gc["user_id"]}),
    ("modify_pending_order_payment", {"order_id": rich_gc["order_id"],
                                      "payment_method_id": rich_gc["payment_history"][0]["payment_method_id"]}),
    ("modify_pending_order_payment", {"order_id": gc_pending["order_id"], "payment_method_id": method_of(gc_pending_user, "credit_card")}),
    ("modify_user_address", {"user_id": "nobody_0000", "address1": "1 Main St", "address2": "", "city": "Austin",
                             "state": "TX", "country": "USA", "zip": "78701"}),
    ("modify_user_address", {"user_id": cc_pending["user_id"], "address1": "1 Main St", "address2": "", "city": "Austin",
                             "state": "TX", "country": "USA", "zip": "78701"}),
])

pend2 = first(lambda o: o["order_id"] not in {cc_pending["order_id"], gc_pending["order_id"], rich_gc["order_id"],
                                               poor_gc["order_id"]} and variant_choices(o, o["items"][0])[0], pending)
pend2_gc = first(lambda o: o["order_id"] != pend2["order_id"] and method_of(users[o["user_id"]], "gift_card")
                 and variant_choices(o, o["items"][0])[0] and o["order_id"] not in
                 {cc_pending["order_id"], gc_pending["order_id"], rich_gc["order_id"], poor_gc["order_id"]}, pending)
run("items of pending orders", [
    # No items at all: the difference stays the integer 0.
    ("modify_pending_order_items", {"order_id": pend2["order_id"], "item_ids": [], "new_item_ids": [],
                                    "payment_method_id": pend2["payment_history"][0]["payment_method_id"]}),
    ("modify_pending_order_items", {"order_id": pend2_gc["order_id"], "item_ids": [pend2_gc["items"][0]["item_id"]],
                                    "new_item_ids": [variant_choices(pend2_gc, pend2_gc["items"][0])[0][-1]],
                                    "payment_method_id": method_of(users[pend2_gc["user_id"]], "gift_card")}),
    ("get_user_details", {"user_id": pend2_gc["user_id"]}),
])

x_item, y_item = dl["items"][0], dl["items"][1]
x_new = variant_choices(dl, x_item)[0][0]
y_new = variant_choices(dl, y_item)[0][-1]
unavail_item = first(lambda i: variant_choices(dl, i)[1], dl["items"])
dl_cc = dl["payment_history"][0]["payment_method_id"]
other_method = first(lambda k: k != dl_cc and not k.startswith("gift_card"), list(dl_user["payment_methods"]) + ["paypal_0000000"])
run("delivered orders", [
    ("return_delivered_order_items", {"order_id": pending[0]["order_id"], "item_ids": [pending[0]["items"][0]["item_id"]],
                                      "payment_method_id": pending[0]["payment_history"][0]["payment_method_id"]}),
    ("return_delivered_order_items", {"order_id": dl["order_id"], "item_ids": [x_item["item_id"]],
                                      "payment_method_id": "credit_card_0000000"}),
    ("return_delivered_order_items", {"order_id": dl["order_id"], "item_ids": [x_item["item_id"]],
                                      "payment_method_id": other_method}),
    ("return_delivered_order_items", {"order_id": dl["order_id"], "item_ids": ["0000000000"], "payment_method_id": dl_cc}),
    ("exchange_delivered_order_items", {"order_id": pending[0]["order_id"], "item_ids": [], "new_item_ids": [],
                                        "payment_method_id": dl_cc}),
    ("exchange_delivered_order_items", {"order_id": dl["order_id"], "item_ids": [x_item["item_id"]] * 4,
                                        "new_item_ids": [x_new] * 4, "payment_method_id": dl_cc}),
    ("exchange_delivered_order_items", {"order_id": dl["order_id"], "item_ids": [x_item["item_id"]], "new_item_ids": [x_new, y_new],
                                        "payment_method_id": dl_cc}),
    ("exchange_delivered_order_items", {"order_id": dl["order_id"], "item_ids": [x_item["item_id"]],
                                        "new_item_ids": [other_product_item(x_item)], "payment_method_id": dl_cc}),
    ("exchange_delivered_order_items", {"order_id": dl["order_id"], "item_ids": [unavail_item["item_id"]],
                                        "new_item_ids": [variant_choices(dl, unavail_item)[1][0]], "payment_method_id": dl_cc}),
    ("exchange_delivered_order_items", {"order_id": dl["order_id"], "item_ids": [x_item["item_id"]], "new_item_ids": [x_new],
                                        "payment_method_id": "gift_card_0000000"}),
    ("exchange_delivered_order_items", {"order_id": dl["order_id"], "item_ids": [x_item["item_id"]], "new_item_ids": [x_item["item_id"]],
                                        "payment_method_id": method_of(dl_user, "gift_card")}),
    ("exchange_delivered_order_items", {"order_id": dl["order_id"], "item_ids": [x_item["item_id"], y_item["item_id"]],
                                        "new_item_ids": [x_new, y_new], "payment_method_id": dl_cc}),
    ("exchange_delivered_order_items", {"order_id": dl["order_id"], "item_ids": [x_item["item_id"]], "new_item_ids": [x_new],
                                        "payment_method_id": dl_cc}),
    ("return_delivered_order_items", {"order_id": dl["order_id"], "item_ids": [x_item["item_id"]], "payment_method_id": dl_cc}),
])
# A refund to a method of the user's that is neither the original nor a gift card.
dl4 = first(lambda o: sum(1 for k in users[o["user_id"]]["payment_methods"] if not k.startswith("gift_card")
                          and k != o["payment_history"][0]["payment_method_id"]) >= 1, delivered)
dl4_other = first(lambda k: not k.startswith("gift_card") and k != dl4["payment_history"][0]["payment_method_id"],
                  users[dl4["user_id"]]["payment_methods"])
# An exchange for a dearer variant, to be paid from a gift card that cannot cover it.
def dearer(o):
    for i in o["items"]:
        for k, v in products[i["product_id"]]["variants"].items():
            if v["available"] and v["price"] > i["price"] + 1 and k != i["item_id"]:
                return i["item_id"], k
    return None
dl5 = first(lambda o: dearer(o) and gift_balance(users[o["user_id"]]) is not None
            and gift_balance(users[o["user_id"]]) < 1, delivered)
run("refund methods and gift cards", [
    ("return_delivered_order_items", {"order_id": dl4["order_id"], "item_ids": [dl4["items"][0]["item_id"]],
                                      "payment_method_id": dl4_other}),
    ("exchange_delivered_order_items", {"order_id": dl5["order_id"], "item_ids": [dearer(dl5)[0]],
                                        "new_item_ids": [dearer(dl5)[1]],
                                        "payment_method_id": method_of(users[dl5["user_id"]], "gift_card")}),
])
dl2 = first(lambda o: o["order_id"] != dl["order_id"] and method_of(users[o["user_id"]], "gift_card"), delivered)
dl3 = first(lambda o: o["order_id"] not in {dl["order_id"], dl2["order_id"]}, delivered)
run("returns and empty exchanges", [
    ("return_delivered_order_items", {"order_id": dl2["order_id"], "item_ids": [i["item_id"] for i in dl2["items"]],
                                      "payment_method_id": method_of(users[dl2["user_id"]], "gift_card")}),
    ("return_delivered_order_items", {"order_id": dl2["order_id"], "item_ids": [], "payment_method_id": "gift_card_0000000"}),
    ("exchange_delivered_order_items", {"order_id": dl3["order_id"], "item_ids": [], "new_item_ids": [],
                                        "payment_method_id": dl3["payment_history"][0]["payment_method_id"]}),
    ("get_order_details", {"order_id": dl3["order_id"]}),
])

with open(OUT, "w", encoding="utf-8", newline="\n") as f:
    for line in lines:
        f.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
print(f"wrote {len(lines)} calls to {OUT}", file=sys.stderr)
