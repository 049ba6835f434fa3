package dev.stretto.cli.console.source;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which of the scanned directories changed since the last time it was asked: the file system's
 * own notices (inotify on Linux), read without a thread of its own when the index is asked for.
 * When it cannot tell (no watch service, a directory that cannot be watched, notices lost to an
 * overflow) it says so, and the index walks everything again.
 */
public final class DirectoryWatch implements AutoCloseable {

    private final WatchService service;
    private final Map<WatchKey, Path> keys = new HashMap<>();
    private final Set<Path> watched = new HashSet<>();
    private boolean blind;

    /** A watch over nothing yet. */
    public DirectoryWatch() {
        WatchService s;
        try {
            s = FileSystems.getDefault().newWatchService();
        } catch (IOException | UnsupportedOperationException e) {
            s = null;
        }
        service = s;
        blind = s == null;
    }

    /**
     * Watches the directories not watched yet.
     *
     * @param dirs directories that exist now
     * @return the directories watched from now on that were not before: what changed in them
     *         between their listing and now was not heard of
     */
    public synchronized Set<Path> watch(Set<Path> dirs) {
        Set<Path> added = new HashSet<>();
        if (service == null) {
            return added;
        }
        for (Path d : dirs) {
            if (watched.contains(d)) {
                continue;
            }
            try {
                keys.put(d.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE,
                        StandardWatchEventKinds.ENTRY_MODIFY), d);
                watched.add(d);
                added.add(d);
            } catch (IOException | UnsupportedOperationException | ClosedWatchServiceException e) {
                // Too many watches, say: this directory's changes cannot be heard of.
                blind = true;
            }
        }
        return added;
    }

    /**
     * The directories whose entries changed since the last call.
     *
     * @return the directories, or null when the watch cannot tell (then everything may have changed)
     */
    public synchronized Set<Path> changed() {
        if (blind) {
            blind = service == null;
            return null;
        }
        Set<Path> out = new HashSet<>();
        WatchKey key;
        try {
            while ((key = service.poll()) != null) {
                Path dir = keys.get(key);
                for (WatchEvent<?> e : key.pollEvents()) {
                    if (e.kind() == StandardWatchEventKinds.OVERFLOW) {
                        key.reset();
                        return null;
                    }
                    if (dir != null) {
                        out.add(dir);
                        if (e.kind() == StandardWatchEventKinds.ENTRY_DELETE && e.context() instanceof Path name) {
                            // A directory removed takes its own watch with it.
                            Path child = dir.resolve(name);
                            watched.remove(child);
                            out.add(child);
                        }
                    }
                }
                if (!key.reset() && dir != null) {
                    keys.remove(key);
                    watched.remove(dir);
                    out.add(dir);
                }
            }
        } catch (ClosedWatchServiceException e) {
            return null;
        }
        return out;
    }

    @Override
    public synchronized void close() {
        if (service != null) {
            try {
                service.close();
            } catch (IOException ignored) {
                // Nothing is watched any more either way.
            }
        }
    }
}
