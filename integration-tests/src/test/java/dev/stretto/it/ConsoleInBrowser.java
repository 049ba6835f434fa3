package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.TestInstance;

/**
 * What the console's browser tests share: {@code stretto console} started on some directories
 * and opened in headless Chromium once for the class, both stopped after it; after each test,
 * no page may have logged an error or a policy violation in the browser's console.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ConsoleInBrowser {

    ConsoleProc console;
    Browser browser;

    /**
     * Starts the console on {@code dirs} and opens it.
     *
     * @param shots where below {@code integration-tests/target/console-screenshots/} the
     *              screenshots go ({@code ""} for there)
     */
    void open(List<Path> dirs, String shots) throws Exception {
        console = ConsoleProc.start(dirs, Repo.root().resolve("integration-tests/target/console-screenshots")
                .resolve(shots));
        browser = console.browser();
    }

    @AfterAll
    void stop() throws Exception {
        if (console != null) {
            console.close();
        }
    }

    @AfterEach
    void noErrorsInTheBrowser() {
        assertEquals(List.of(), browser.errors(), "the browser's console");
    }
}
