package dev.stretto.demo.tau2;

import java.nio.file.Files;
import java.nio.file.Path;

/** testdata/tau2-retail, found above the module's directory (see testdata/tau2-retail/README.md). */
public final class Tau2Data {
    private Tau2Data() {
    }

    /** {@return testdata/tau2-retail of the checkout} */
    public static Path dir() {
        Path moduleDir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path d = moduleDir; d != null; d = d.getParent()) {
            Path data = d.resolve("testdata/tau2-retail");
            if (Files.isRegularFile(data.resolve("goldens.jsonl"))) {
                return data;
            }
        }
        throw new IllegalStateException("the test data is missing: expected testdata/tau2-retail at the top of"
                + " the checkout, above " + moduleDir);
    }
}
