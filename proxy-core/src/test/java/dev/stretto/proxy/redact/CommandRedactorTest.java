package dev.stretto.proxy.redact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.redact.CommandRedactor.Shape;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The redaction table: each row a command as given and as the log header records it, with
 * the shape it shows (null for commands that must stay as they are). docs/proxy.md shows the
 * same table.
 */
class CommandRedactorTest {

    private static final String R = CommandRedactor.REDACTED;

    private static Arguments row(Shape shape, String given, String logged) {
        return Arguments.of(shape, given, logged);
    }

    static Stream<Arguments> table() {
        return Stream.of(
                row(Shape.VALUE_AFTER_SECRET_FLAG, "srv --api-key sk-123 --port 80", "srv --api-key " + R + " --port 80"),
                row(Shape.VALUE_AFTER_SECRET_FLAG, "srv --TOKEN abc", "srv --TOKEN " + R),
                row(Shape.VALUE_AFTER_SECRET_FLAG, "srv -password hunter2", "srv -password " + R),
                row(Shape.VALUE_AFTER_SECRET_FLAG, "srv -private-key k.pem", "srv -private-key " + R),
                row(Shape.VALUE_AFTER_SECRET_FLAG, "srv --client-secret s", "srv --client-secret " + R),
                row(Shape.VALUE_AFTER_SECRET_FLAG, "srv --passwd s --passphrase t", "srv --passwd " + R + " --passphrase " + R),
                row(Shape.VALUE_AFTER_SECRET_FLAG, "srv --credentials f.json", "srv --credentials " + R),
                row(Shape.VALUE_AFTER_SECRET_FLAG, "srv --auth user:pw", "srv --auth " + R),
                row(Shape.VALUE_AFTER_SECRET_FLAG, "srv --pat abc --pwd x", "srv --pat " + R + " --pwd " + R),
                row(Shape.VALUE_AFTER_SECRET_FLAG, "srv --cookie session=abc", "srv --cookie " + R),
                row(Shape.VALUE_AFTER_SECRET_FLAG, "srv --api-key -Xq9", "srv --api-key " + R),
                row(Shape.VALUE_AFTER_SECRET_FLAG, "srv --token --api-key v", "srv --token --api-key " + R),
                row(Shape.PASSWORD_AFTER_P, "mysql -u root -p s3cret db", "mysql -u root -p " + R + " db"),
                row(Shape.PASSWORD_AFTER_P, "mysql -u root -ps3cret db", "mysql -u root -p" + R + " db"),
                row(Shape.PASSWORD_AFTER_P, "mysql -pmonkey123", "mysql -p" + R),
                row(Shape.PASSWORD_AFTER_P, "npx -p @scope/pkg cmd", "npx -p " + R + " cmd"),
                row(Shape.TOKEN_AFTER_SCHEME, "srv --header Authorization: Bearer abc", "srv --header Authorization: Bearer " + R),
                row(Shape.TOKEN_AFTER_SCHEME, "srv Bearer abc", "srv Bearer " + R),
                row(Shape.TOKEN_AFTER_SCHEME, "srv -H|Authorization: Bearer|abc", "srv -H|Authorization: Bearer|" + R),
                row(Shape.TOKEN_AFTER_SCHEME, "srv -H|X-Api-Key:|abc", "srv -H|X-Api-Key:|" + R),
                row(Shape.SECRET_ASSIGNMENT, "srv --token=abc --mode=fast", "srv --token=" + R + " --mode=fast"),
                row(Shape.SECRET_ASSIGNMENT, "env GITHUB_TOKEN=ghp_x HOME=/h srv", "env GITHUB_TOKEN=" + R + " HOME=/h srv"),
                row(Shape.SECRET_ASSIGNMENT, "srv --api_key=a=b", "srv --api_key=" + R),
                row(Shape.SECRET_HEADER, "srv --header|X-Api-Key: abc", "srv --header|X-Api-Key: " + R),
                row(Shape.SECRET_HEADER, "srv -H|Authorization: Bearer xyz", "srv -H|Authorization: " + R),
                row(Shape.SECRET_HEADER, "srv|authorization:basic abc", "srv|authorization:" + R),
                row(Shape.TOKEN_AFTER_SCHEME, "srv authorization:basic abc", "srv authorization:basic " + R),
                row(Shape.SECRET_HEADER, "srv|--header=Cookie: a=b", "srv|--header=Cookie: " + R),
                row(Shape.URL_USER_INFO, "srv postgres://u:p@h:5432/db", "srv postgres://" + R + "@h:5432/db"),
                row(Shape.URL_USER_INFO, "env DATABASE_URL=postgres://u:p@h/db srv", "env DATABASE_URL=postgres://" + R + "@h/db srv"),
                row(Shape.URL_USER_INFO, "git clone https://ghtoken@github.com/o/r", "git clone https://" + R + "@github.com/o/r"),
                row(Shape.URL_USER_INFO, "srv --db=mysql://root:pw@127.0.0.1/x", "srv --db=mysql://" + R + "@127.0.0.1/x"),
                row(Shape.SECRET_PAIR, "srv https://h/mcp?region=eu&access_token=Y", "srv https://h/mcp?region=eu&access_token=" + R),
                row(Shape.SECRET_PAIR, "srv https://h/mcp?api_key=Y&region=eu", "srv https://h/mcp?api_key=" + R + "&region=eu"),
                row(Shape.SECRET_PAIR, "srv Server=h;Password=X;Database=d", "srv Server=h;Password=" + R + ";Database=d"),
                row(Shape.SECRET_PAIR, "srv Server=h;User ID=u;Pwd=X", "srv Server=h;User ID=u;Pwd=" + R),
                row(Shape.SECRET_PAIR, "srv host=h|dbname=d password=X user=u", "srv host=h|dbname=d password=" + R + " user=u"),
                row(Shape.SECRET_PAIR, "srv --opts=a=1,secret=x,b=2", "srv --opts=a=1,secret=" + R + ",b=2"),
                row(Shape.SCHEME_TOKEN, "srv --header|X-Api: BEARER abc", "srv --header|X-Api: BEARER " + R),
                row(Shape.SCHEME_TOKEN, "srv --with|Basic dXNlcjpwYXNz", "srv --with|Basic " + R),
                row(Shape.KNOWN_TOKEN, "srv sk-proj-abcdefghijklmnop1234", "srv " + R),
                row(Shape.KNOWN_TOKEN, "srv sk-ant-api03-abcdefghijklmnopqrstuv", "srv " + R),
                row(Shape.KNOWN_TOKEN, "srv --key-file=x sk-abc123", "srv --key-file=" + R + " " + R),
                row(Shape.KNOWN_TOKEN, "srv --x=ghp_abcdefghijklmnopqrstuvwxyz0123", "srv --x=" + R),
                row(Shape.KNOWN_TOKEN, "srv github_pat_11ABCDEFG0abcdefghijkl_mnop", "srv " + R),
                row(Shape.KNOWN_TOKEN, "srv xoxb-1234567890-abcdefghij", "srv " + R),
                row(Shape.KNOWN_TOKEN, "srv AKIAIOSFODNN7EXAMPLE", "srv " + R),
                row(Shape.KNOWN_TOKEN, "srv AIzaSyA-abcdefghijklmnopqrstuvwxyz01234", "srv " + R),
                row(Shape.KNOWN_TOKEN, "srv glpat-abcdefghijklmnopqrst", "srv " + R),
                row(Shape.KNOWN_TOKEN, "srv key:sk_live_abcdefghijklmnop12", "srv key:" + R),
                row(Shape.KNOWN_TOKEN, "srv eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijk", "srv " + R),
                // What must stay visible.
                row(null, "docker run -p 8080:80 img", "docker run -p 8080:80 img"),
                row(null, "srv -p 8080", "srv -p 8080"),
                row(null, "srv -p 127.0.0.1:8080:80 -p 53/udp", "srv -p 127.0.0.1:8080:80 -p 53/udp"),
                row(null, "mysql -p -u root", "mysql -p -u root"),
                row(null, "npx -y @modelcontextprotocol/server-filesystem /tmp --port 3000",
                        "npx -y @modelcontextprotocol/server-filesystem /tmp --port 3000"),
                row(null, "srv --path /home/me/keys/server.key", "srv --path /home/me/keys/server.key"),
                row(null, "srv --config /etc/token-cache.json", "srv --config /etc/token-cache.json"),
                row(null, "uvx mcp-server-git --repository /home/me/src", "uvx mcp-server-git --repository /home/me/src"),
                row(null, "srv serve stdio", "srv serve stdio"),
                row(null, "srv LOG_LEVEL=debug", "srv LOG_LEVEL=debug"),
                row(null, "srv https://example.com/mcp?region=eu&page=2", "srv https://example.com/mcp?region=eu&page=2"),
                row(null, "srv --email me@example.com", "srv --email me@example.com"),
                row(null, "pip install scikit-learn sk-learn", "pip install scikit-learn sk-learn"),
                row(null, "srv --lang sk-SK --script sk-Latn", "srv --lang sk-SK --script sk-Latn"),
                row(null, "srv --mode basic --x Bearer", "srv --mode basic --x Bearer"),
                row(null, "srv http://localhost:8080/mcp", "srv http://localhost:8080/mcp"));
    }

    /** Arguments are separated by spaces, or by | in rows whose arguments hold spaces. */
    private static List<String> argv(String line) {
        return Arrays.asList(line.contains("|") ? line.split("\\|") : line.split(" "));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("table")
    void eachShapeIsRedactedAndEverythingElseKept(Shape shape, String given, String logged) {
        assertEquals(argv(logged), CommandRedactor.redact(argv(given)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("table")
    void redactingTwiceChangesNothingMore(Shape shape, String given, String logged) {
        // stretto show redacts the header of older logs again before it prints it.
        assertEquals(argv(logged), CommandRedactor.redact(CommandRedactor.redact(argv(given))));
    }

    @Test
    void theTableHasARowForEveryShape() {
        Set<Shape> seen = EnumSet.noneOf(Shape.class);
        table().forEach(a -> {
            if (a.get()[0] != null) {
                seen.add((Shape) a.get()[0]);
            }
        });
        assertEquals(EnumSet.allOf(Shape.class), seen);
    }

    @Test
    void tokensAreKnownByTheirForm() {
        assertTrue(CommandRedactor.looksLikeToken("ghp_abcdefghijklmnopqrstuvwxyz0123"));
        assertTrue(CommandRedactor.looksLikeToken("Bearer sk-abcdefghijklmnopqrst"));
        assertFalse(CommandRedactor.looksLikeToken("ORDERS_AUTH"));
        assertFalse(CommandRedactor.looksLikeToken("GITHUB_TOKEN"));
    }
}
