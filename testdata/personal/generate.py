#!/usr/bin/env python3
"""Writes the six sessions of testdata/personal/: invented customers of a retail MCP server,
recorded as stretto-proxy records (format 2), each with a name, an email, a phone number, a
street address, a date of birth, a payment card, an IBAN and a home path in the server command.
Every person, number and address here is made up. Run it from this directory; the output is
deterministic."""
import json
import random

PEOPLE = [
    ("Yusuf", "Rossi", "yusufr", "19122", "Philadelphia", "PA"),
    ("Ana", "Okafor", "aokafor", "10027", "New York", "NY"),
    ("Mei", "Lindqvist", "mlindq", "94110", "San Francisco", "CA"),
    ("Omar", "Haddad", "ohaddad", "60614", "Chicago", "IL"),
    ("Sofia", "Brennan", "sbrennan", "73301", "Austin", "TX"),
    ("Lucas", "Moreau", "lmoreau", "98101", "Seattle", "WA"),
]
STREETS = ["Elm Street", "Oak Avenue", "Maple Road", "Cedar Lane", "Birch Drive", "Willow Court"]

TOOLS = [
    {"annotations": {"readOnlyHint": True}, "description": "Find a user id by first name, last name and zip code.",
     "inputSchema": {"properties": {"first_name": {"type": "string"}, "last_name": {"type": "string"},
                                    "zip": {"type": "string"}},
                     "required": ["first_name", "last_name", "zip"], "type": "object"},
     "name": "find_user_id_by_name_zip"},
    {"annotations": {"readOnlyHint": True}, "description": "Get a user's details, including their orders.",
     "inputSchema": {"properties": {"user_id": {"type": "string"}}, "required": ["user_id"], "type": "object"},
     "name": "get_user_details"},
    {"annotations": {"readOnlyHint": True}, "description": "Get the status and details of an order.",
     "inputSchema": {"properties": {"order_id": {"type": "string"}}, "required": ["order_id"], "type": "object"},
     "name": "get_order_details"},
    {"annotations": {"readOnlyHint": False}, "description": "Change the shipping address of a pending order.",
     "inputSchema": {"properties": {k: {"type": "string"} for k in
                                    ["order_id", "address1", "address2", "city", "state", "country", "zip"]},
                     "required": ["order_id", "address1", "address2", "city", "state", "country", "zip"],
                     "type": "object"},
     "name": "modify_pending_order_address"},
]


def luhn_complete(digits):
    for c in "0123456789":
        s = digits + c
        total = 0
        for i, d in enumerate(reversed(s)):
            v = int(d)
            if i % 2 == 1:
                v *= 2
                if v > 9:
                    v -= 9
            total += v
        if total % 10 == 0:
            return s
    raise AssertionError


def iban(rng):
    bban = "".join(rng.choice("0123456789") for _ in range(18))
    num = int(bban + "1314" + "00")  # D=13, E=14
    return "DE%02d%s" % (98 - num % 97, bban)


def compact(v):
    return json.dumps(v, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def main():
    rng = random.Random(24)
    for n, (first, last, login, zipc, city, state) in enumerate(PEOPLE):
        start = 1793700000000 + n * 3600_000
        pid = 31000 + n
        session = "20261103T%02d0000.000Z-%d" % (10 + n, pid)
        user_id = "%s_%s_%04d" % (first.lower(), last.lower(), rng.randrange(1000, 9999))
        email = "%s.%s%d@example.com" % (first.lower(), last.lower(), rng.randrange(10, 99))
        phone = "+1 (%03d) 555-%04d" % (rng.randrange(201, 989), rng.randrange(100, 199))
        new_phone = "+1 (%03d) 555-%04d" % (rng.randrange(201, 989), rng.randrange(100, 199))
        card = luhn_complete("4" + "".join(rng.choice("0123456789") for _ in range(14)))
        card_spaced = " ".join(card[i:i + 4] for i in range(0, 16, 4))
        account = iban(rng)
        account_spaced = " ".join(account[i:i + 4] for i in range(0, len(account), 4))
        pm = "credit_card_%07d" % rng.randrange(1000000, 9999999)
        orders = ["#W%07d" % rng.randrange(1000000, 9999999) for _ in range(2)]
        dob = "%04d-%02d-%02d" % (rng.randrange(1950, 2000), rng.randrange(1, 13), rng.randrange(1, 29))
        old_street = "%d %s" % (rng.randrange(10, 999), STREETS[n])
        new_street = "%d %s" % (rng.randrange(10, 999), STREETS[(n + 2) % len(STREETS)])
        old_address = {"address1": old_street, "address2": "Suite %d" % rng.randrange(100, 999), "city": city,
                       "country": "USA", "state": state, "zip": zipc}
        new_address = {"address1": new_street, "address2": "Apt %d%s" % (rng.randrange(1, 9), rng.choice("ABC")),
                       "city": city, "country": "USA", "state": state, "zip": zipc}
        user = {"address": old_address, "dob": dob, "email": email,
                "name": {"first_name": first, "last_name": last}, "orders": orders,
                "payment_methods": {pm: {"brand": "visa", "id": pm, "last_four": card[-4:], "source": "credit_card"}},
                "phone": phone, "user_id": user_id}

        def order(oid):
            return {"address": old_address, "items": [{"item_id": "%010d" % rng.randrange(10 ** 9, 10 ** 10),
                                                        "name": "Desk lamp", "price": 34.5,
                                                        "product_id": "8310926033"}],
                    "order_id": oid, "payment_history": [{"amount": 34.5, "payment_method_id": pm,
                                                          "transaction_type": "payment"}],
                    "status": "pending", "user_id": user_id}

        lines = [json.dumps({"stretto_mcp_log": 2, "session": session, "started_unix_ms": start,
                          "server_command": ["npx", "-y", "retail-mcp-server", "--data",
                                             "/home/%s/shop/customers.db" % login],
                          "domain": "retail2", "agent_model": None, "host_session": "host-%d" % (41000 + n)},
                            separators=(",", ":"), ensure_ascii=False)]
        t = [0]
        next_id = [1]

        def entry(frm, message, gap=1):
            t[0] += gap
            lines.append('{"t_ms":%d,"from":"%s","message":%s}' % (t[0], frm, message))

        def say(role, text, gap=1):
            entry("context", compact({"role": role, "content": text}), gap)

        def call(tool, args, result, gap=600):
            i = next_id[0]
            next_id[0] += 1
            entry("client", compact({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                                     "params": {"name": tool, "arguments": args}}), gap)
            text = result if isinstance(result, str) else compact(result)
            entry("server", compact({"id": i, "jsonrpc": "2.0",
                                     "result": {"content": [{"text": text, "type": "text"}], "isError": False}}))

        entry("client", compact({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                 "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                            "clientInfo": {"name": "shop-agent", "version": "1"}}}))
        entry("server", compact({"id": 1, "jsonrpc": "2.0",
                                 "result": {"capabilities": {"tools": {"listChanged": False}},
                                            "protocolVersion": "2025-06-18",
                                            "serverInfo": {"name": "retail-mcp-server", "version": "1.0.0"}}}))
        entry("client", compact({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        entry("client", compact({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}))
        entry("server", compact({"id": 2, "jsonrpc": "2.0", "result": {"tools": TOOLS}}))
        next_id[0] = 3
        say("user", "Hi, I'm %s %s, zip code %s. I'd like to change where my order ships." % (first, last, zipc), 5)
        call("find_user_id_by_name_zip", {"first_name": first, "last_name": last, "zip": zipc}, user_id, 1)
        call("get_user_details", {"user_id": user_id}, user)
        call("get_order_details", {"order_id": orders[0]}, order(orders[0]))
        call("get_order_details", {"order_id": orders[1]}, order(orders[1]))
        say("assistant", "Your order %s ships to %s, %s, %s, %s %s. What is the new address?"
            % (orders[0], old_street, old_address["address2"], city, state, zipc), 5)
        say("user", "Please send it to %s, %s, %s, %s %s. You can reach me at %s or %s. "
                    "My card is %s and refunds go to %s."
            % (new_street, new_address["address2"], city, state, zipc, new_phone, email.upper(),
               card_spaced, account_spaced))
        call("modify_pending_order_address", dict(order_id=orders[0], **new_address),
             {"address": new_address, "order_id": orders[0], "status": "pending"})
        say("assistant", "Done: order %s now ships to %s." % (orders[0], new_street), 5)
        with open(session + ".jsonl", "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


main()
