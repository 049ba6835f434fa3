package dev.stretto.cli.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Where TomlLayout finds tables, and what it steps over. */
class TomlLayoutTest {

    @Test
    void tablesRunToTheirLastLineOfContentAndTheCommentsAfterBelongToWhatFollows() {
        String text = """
                # top
                model = "o3"

                [mcp_servers.a]
                command = "x"

                [mcp_servers.a.env]
                LOG = "1"

                # about b
                [mcp_servers."b c"]
                url = "https://x"
                """;
        TomlLayout layout = TomlLayout.of(text);
        List<TomlLayout.Table> tables = layout.tables();
        assertEquals(List.of(List.of("mcp_servers", "a"), List.of("mcp_servers", "a", "env"), List.of("mcp_servers", "b c")),
                tables.stream().map(TomlLayout.Table::keys).toList());
        assertEquals("[mcp_servers.a]\ncommand = \"x\"\n", text.substring(tables.get(0).start(), tables.get(0).end()));
        assertEquals("[mcp_servers.a.env]\nLOG = \"1\"\n", text.substring(tables.get(1).start(), tables.get(1).end()));
        assertEquals("[mcp_servers.\"b c\"]\nurl = \"https://x\"\n", text.substring(tables.get(2).start(), tables.get(2).end()));
        assertFalse(layout.hasComment(tables.get(1).start(), tables.get(1).end()));
        assertTrue(layout.hasComment(0, tables.get(0).start()));
    }

    @Test
    void bracketsInStringsAndArraysThatSpanLinesAreNotHeaders() {
        String text = """
                [a]
                s = \"\"\"
                [not.a.table]
                \"\"\"
                t = '''
                [nor.this]'''
                list = [
                  [1, 2],
                  "[x]",
                ]
                k = "# not a comment"
                [b] # a comment
                """;
        TomlLayout layout = TomlLayout.of(text);
        assertEquals(List.of(List.of("a"), List.of("b")), layout.tables().stream().map(TomlLayout.Table::keys).toList());
        TomlLayout.Table a = layout.tables().getFirst();
        assertFalse(layout.hasComment(a.start(), a.end()));
        TomlLayout.Table b = layout.tables().get(1);
        assertTrue(layout.hasComment(b.start(), b.end()));
    }
}
