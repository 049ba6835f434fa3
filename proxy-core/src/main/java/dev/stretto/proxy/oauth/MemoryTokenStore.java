package dev.stretto.proxy.oauth;

import dev.stretto.proxy.StoredLogin;
import dev.stretto.proxy.TokenStore;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;

/** A store in memory ({@code OAuthLogins.memoryStore}): a map, and a lock per server. */
public final class MemoryTokenStore implements TokenStore {

    private final ConcurrentMap<URI, StoredLogin> logins = new ConcurrentHashMap<>();
    private final ConcurrentMap<URI, ReentrantLock> locks = new ConcurrentHashMap<>();

    @Override
    public Optional<StoredLogin> load(URI server) {
        return Optional.ofNullable(logins.get(TokenStore.keyOf(server)));
    }

    @Override
    public void save(StoredLogin login) {
        logins.put(TokenStore.keyOf(login.server()), login);
    }

    @Override
    public boolean forget(URI server) {
        return logins.remove(TokenStore.keyOf(server)) != null;
    }

    @Override
    public List<StoredLogin> list() {
        List<StoredLogin> out = new ArrayList<>(logins.values());
        out.sort((a, b) -> a.server().toString().compareTo(b.server().toString()));
        return out;
    }

    @Override
    public <T> T exclusive(URI server, Work<T> work) throws IOException, InterruptedException {
        ReentrantLock lock = locks.computeIfAbsent(TokenStore.keyOf(server), k -> new ReentrantLock());
        lock.lockInterruptibly();
        try {
            return work.run();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "a store in memory";
    }
}
