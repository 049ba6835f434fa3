package dev.stretto.proxy.flow;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.Promoted;
import dev.stretto.proxy.flow.file.FlowFile;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.FlowManifest;
import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.proxy.testing.ReferenceData;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import dev.stretto.trace.manifest.Manifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/** The example flows and sessions, and variations of them, for the flow's tests. */
public final class FlowTesting {

    /** The session served with shop.flow.json. */
    public static final String SERVED = "home/served/shop/20260928T020401.117Z-14662.jsonl";
    /** A retail session recorded without a flow (customer c61). */
    public static final String RETAIL = "home/logs/retail/20260928T020401.312Z-14780.jsonl";

    private FlowTesting() {
    }

    /** An example flow. */
    public static Flow flow(String fixture) {
        try {
            return FlowFile.read(ReferenceData.file(fixture));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A reference session log. */
    public static SessionLog log(String fixture) {
        try {
            return SessionLog.read(ReferenceData.file(fixture));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The episode of {@code log} up to the server's response to call {@code callId}, cut at
     * that call: what a flow decides on when that response arrives.
     */
    public static EpisodeCut cutAt(SessionLog log, String callId) {
        for (int i = 0; i < log.entries().size(); i++) {
            LogEntry e = log.entries().get(i);
            if (e.from() == Source.SERVER && e.payload() instanceof Payload.Message m) {
                JsonNode id = m.tree().orElseThrow().get("id");
                if (id != null && (id.isTextual() ? id.textValue() : CanonicalJson.write(id)).equals(callId)) {
                    SessionLog prefix = new SessionLog(log.header(), log.entries().subList(0, i + 1));
                    return EpisodeCut.afterCall(Episode.of(prefix), callId).orElseThrow();
                }
            }
        }
        throw new IllegalArgumentException("no response to " + callId);
    }

    /** {@code flow} with another promotion record. */
    public static Flow withPromoted(Flow f, Promoted promoted) {
        return new Flow(f.format(), f.provenance(), f.vocab(), f.manifest(), f.map(), f.group(), f.habit(), f.sites(),
                f.predicates(), f.weighed(), f.folds(), f.bindings(), f.model(), f.program(), promoted, f.thresholds(),
                f.contracts(), f.reach());
    }

    /** {@code flow} with per-site thresholds (and so format 2). */
    public static Flow withThresholds(Flow f, Map<String, Double> thresholds) {
        return new Flow(f.provenance(), f.vocab(), f.manifest(), f.map(), f.group(), f.habit(), f.sites(),
                f.predicates(), f.weighed(), f.folds(), f.bindings(), f.model(), f.program(), f.promoted(), thresholds,
                f.contracts(), f.reach());
    }

    /** {@code flow} offering every read tool at every site. */
    public static Flow withEveryRead(Flow f) {
        Sites s = f.sites();
        return new Flow(f.format(), f.provenance(), f.vocab(), f.manifest(), f.map(), f.group(), f.habit(),
                new Sites(s.reads(), s.next(), s.feeds(), true), f.predicates(), f.weighed(), f.folds(), f.bindings(),
                f.model(), f.program(), f.promoted(), f.thresholds(), f.contracts(), f.reach());
    }

    /** {@code flow} with other sites. */
    public static Flow withSites(Flow f, Sites sites) {
        return new Flow(f.format(), f.provenance(), f.vocab(), f.manifest(), f.map(), f.group(), f.habit(), sites,
                f.predicates(), f.weighed(), f.folds(), f.bindings(), f.model(), f.program(), f.promoted(),
                f.thresholds(), f.contracts(), f.reach());
    }

    /** {@code flow} with other tool docs. */
    public static Flow withDocs(Flow f, Map<String, Manifest.ToolDoc> docs) {
        FlowManifest m = new FlowManifest(f.manifest().domain(), f.manifest().tools(), docs);
        return new Flow(f.format(), f.provenance(), f.vocab(), m, f.map(), f.group(), f.habit(), f.sites(),
                f.predicates(), f.weighed(), f.folds(), f.bindings(), f.model(), f.program(), f.promoted(),
                f.thresholds(), f.contracts(), f.reach());
    }

    /** A promotion record in which only {@code site} is promoted. */
    public static Promoted promoting(String site) {
        return new Promoted(new Promoted.Bar(0.3, 0.7, 0.5, 3), Map.of(
                site, new Promoted.SiteScore(5, 4, 4, 3, 0.6, true),
                "find_user_id_by_email", new Promoted.SiteScore(5, 5, 1, 3, 0.02, false)));
    }
}
