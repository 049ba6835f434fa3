package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium, driven by its chromedriver: started with a fresh profile and the
 * flags a closed network needs (no background connections, no component updates, no sync),
 * nothing downloaded. The console's browser tests use it to look at pages as a person does.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of(System.getProperty("stretto.chromium", "/usr/bin/chromium"));
    static final Path CHROMEDRIVER = Path.of(System.getProperty("stretto.chromedriver", "/usr/bin/chromedriver"));
    static final Duration WAIT = Duration.ofSeconds(30);

    final ChromeDriver driver;
    private final ChromeDriverService service;
    private final Path profile;
    private final Path shots;

    Browser(Path shots) throws IOException {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            fail("the console's browser tests need " + CHROMIUM + " and " + CHROMEDRIVER
                    + " (Debian's chromium and chromium-driver); bin/test installs them with apt-get");
        }
        this.shots = Files.createDirectories(shots);
        this.profile = Files.createTempDirectory("stretto-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--disable-extensions", "--user-data-dir=" + profile,
                "--window-size=1400,1000", "--lang=en-US", "--hide-scrollbars");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort()
                .withLogFile(shots.resolve("chromedriver.log").toFile()).build();
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(WAIT);
    }

    void open(String url) {
        driver.get(url);
    }

    WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /** The visible texts of the elements {@code css} selects, in page order. */
    List<String> texts(String css) {
        List<String> out = new ArrayList<>();
        for (WebElement e : all(css)) {
            out.add(e.getText());
        }
        return out;
    }

    /**
     * The text content of the elements {@code css} selects, in page order, each with its white
     * space collapsed: what they hold whether or not they are shown, and however a narrow box
     * wraps it.
     */
    List<String> contents(String css) {
        List<String> out = new ArrayList<>();
        for (WebElement e : all(css)) {
            out.add(e.getDomProperty("textContent").strip().replaceAll("\\s+", " "));
        }
        return out;
    }

    /** Waits until {@code condition} holds, failing with {@code what} after {@link #WAIT}. */
    <T> T until(String what, Function<WebDriver, T> condition) {
        // A live page replaces its body as the log grows: an element read a moment ago may be gone.
        return new WebDriverWait(driver, WAIT).withMessage(what).ignoring(StaleElementReferenceException.class)
                .until(condition);
    }

    /** Clicks what {@code css} selects, found afresh if the page replaced it in between. */
    void click(String css) {
        until("to click " + css, d -> {
            find(css).click();
            return true;
        });
    }

    Object script(String js, Object... args) {
        return driver.executeScript(js, args);
    }

    /** Saves what the window shows, the whole page's height, as {@code name}.png. */
    Path screenshot(String name) throws IOException {
        Number height = (Number) script("window.scrollTo(0, 0); return Math.max(document.body.scrollHeight, 600);");
        driver.manage().window().setSize(new org.openqa.selenium.Dimension(1400, Math.min(6000, height.intValue())));
        Path file = shots.resolve(name + ".png");
        Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        driver.manage().window().setSize(new org.openqa.selenium.Dimension(1400, 1000));
        return file;
    }

    /** The console's messages since the last call: any error or policy violation fails the caller. */
    List<String> consoleMessages() {
        List<String> out = new ArrayList<>();
        for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
            out.add(e.getLevel() + " " + e.getMessage());
        }
        return out;
    }

    /** The errors and policy violations in the console's messages since the last call. */
    List<String> errors() {
        return consoleMessages().stream()
                .filter(m -> m.startsWith("SEVERE") || m.contains("Content Security Policy") || m.contains("Refused to"))
                .toList();
    }

    @Override
    public void close() throws IOException {
        try {
            driver.quit();
        } finally {
            service.stop();
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }
}
