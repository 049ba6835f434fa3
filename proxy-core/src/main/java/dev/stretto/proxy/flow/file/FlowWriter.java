package dev.stretto.proxy.flow.file;

import dev.stretto.proxy.flow.model.Action;
import dev.stretto.proxy.flow.model.Backoff;
import dev.stretto.proxy.flow.model.Bindings;
import dev.stretto.proxy.flow.model.Counts;
import dev.stretto.proxy.flow.model.FeatureMap;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.FlowManifest;
import dev.stretto.proxy.flow.model.Fold;
import dev.stretto.proxy.flow.model.Habit;
import dev.stretto.proxy.flow.model.LookupThresholds;
import dev.stretto.proxy.flow.model.Predicate;
import dev.stretto.proxy.flow.model.Program;
import dev.stretto.proxy.flow.Promoted;
import dev.stretto.proxy.flow.Provenance;
import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.JsonText;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Writes a flow as the reference does: one compact line, record fields in declaration order,
 * maps with string keys as objects and other maps as {@code [key, value]} pairs (both in the
 * model's sorted order), counts held as doubles with a decimal point and doubles in Rust's
 * shortest spelling.
 */
final class FlowWriter {

    private final StringBuilder out = new StringBuilder(8192);

    private FlowWriter() {
    }

    static String write(Flow flow) {
        FlowWriter w = new FlowWriter();
        w.flow(flow);
        return w.out.toString();
    }

    private void flow(Flow f) {
        out.append("{\"stretto_flow\":").append(f.format());
        key("provenance");
        provenance(f.provenance());
        key("vocab");
        list(f.vocab(), this::action);
        key("manifest");
        manifest(f.manifest());
        key("map");
        featureMap(f.map());
        key("group");
        out.append(f.group());
        key("habit");
        habit(f.habit());
        key("sites");
        sites(f.sites());
        key("predicates");
        list(f.predicates(), this::predicate);
        key("weighed");
        list(f.weighed(), this::predicate);
        key("folds");
        list(f.folds(), this::fold);
        key("bindings");
        bindings(f.bindings());
        key("model");
        string(f.model());
        if (f.program() != null) {
            key("program");
            out.append(switch (f.program()) {
                case STANDARD -> Program.STANDARD_JSON;
            });
        }
        if (f.promoted() != null) {
            key("promoted");
            promoted(f.promoted());
        }
        if (!f.thresholds().isEmpty()) {
            key("thresholds");
            object(f.thresholds(), (k, v) -> number(v));
        }
        if (!f.contracts().isEmpty()) {
            key("contracts");
            object(f.contracts(), (k, v) -> string(v));
        }
        if (f.reach() != null) {
            key("reach");
            backoff(f.reach());
        }
        if (!f.lookupThresholds().isEmpty()) {
            key("lookup_thresholds");
            object(f.lookupThresholds().values(), (site, tools) -> object(tools, (tool, cases) -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<LookupThresholds.When, Double> c : cases.entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    string(c.getKey().wireName());
                    out.append(':');
                    number(c.getValue());
                }
                out.append('}');
            }));
        }
        out.append('}');
    }

    private void provenance(Provenance p) {
        out.append("{\"stretto\":");
        string(p.stretto());
        key("sources");
        list(p.sources(), this::string);
        key("habit_episodes");
        out.append(p.habitEpisodes());
        key("arbiter_cases");
        out.append(p.arbiterCases());
        key("compiled_unix_ms");
        out.append(p.compiledUnixMs());
        if (p.conventions() != null) {
            key("conventions");
            string(p.conventions());
        }
        out.append('}');
    }

    private void action(Action a) {
        switch (a) {
            case Action.Respond r -> out.append("\"Respond\"");
            case Action.Tool t -> {
                out.append("{\"Tool\":");
                string(t.name());
                out.append('}');
            }
        }
    }

    private void manifest(FlowManifest m) {
        out.append("{\"domain\":");
        string(m.domain());
        key("tools");
        object(m.tools(), (k, v) -> string(v.wireName()));
        key("docs");
        object(m.docs(), (k, d) -> {
            out.append("{\"summary\":");
            string(d.summary());
            key("args");
            object(d.args(), (a, text) -> string(text));
            out.append('}');
        });
        out.append('}');
    }

    private void featureMap(FeatureMap m) {
        out.append("{\"fields\":");
        object(m.fields(), (tool, fields) -> list(fields, field -> {
            out.append(field instanceof FeatureMap.Scalar ? "{\"Scalar\":" : "{\"Len\":");
            string(field.path());
            out.append('}');
        }));
        key("ids");
        pairs(m.ids(), k -> {
            out.append('[');
            string(k.tool());
            out.append(',');
            list(k.values(), this::string);
            out.append(']');
        }, id -> out.append(id));
        out.append('}');
    }

    private void habit(Habit h) {
        out.append("{\"base\":");
        backoff(h.base());
        key("beta");
        number(h.beta());
        key("top");
        pairs(h.top(), k -> {
            out.append('[').append(k.group()).append(',');
            symbols(k.history());
            out.append(']');
        }, this::counts);
        out.append('}');
    }

    private void backoff(Backoff b) {
        out.append("{\"order\":").append(b.order());
        key("alpha");
        number(b.alpha());
        key("vocab_size");
        out.append(b.vocabSize());
        key("levels");
        list(b.levels(), level -> pairs(level, this::symbols, this::counts));
        out.append('}');
    }

    private void symbols(List<Long> history) {
        list(history, s -> out.append(s));
    }

    private void counts(Counts c) {
        out.append("{\"by_action\":");
        pairs(c.byAction(), id -> out.append(id), this::number);
        key("total");
        number(c.total());
        out.append('}');
    }

    private void sites(Sites s) {
        out.append("{\"reads\":");
        list(s.reads(), this::string);
        key("next");
        pairs(s.next(), site -> {
            out.append('[');
            string(site.tool());
            out.append(',').append(site.failed()).append(']');
        }, lookups -> object(lookups, (k, n) -> out.append(n)));
        key("feeds");
        object(s.feeds(), (lookup, feeds) -> pairs(feeds, feed -> {
            out.append('[');
            string(feed.write());
            out.append(',');
            string(feed.argument());
            out.append(']');
        }, n -> out.append(n)));
        if (s.everyRead()) {
            out.append(",\"every_read\":true");
        }
        out.append('}');
    }

    private void predicate(Predicate p) {
        out.append("{\"id\":");
        string(p.id());
        key("favors");
        switch (p.favors()) {
            case Predicate.Named n -> string(n.name());
            case Predicate.Lookup l -> {
                out.append("{\"lookup\":");
                string(l.tool());
                out.append('}');
            }
        }
        key("question");
        string(p.question());
        key("yes");
        string(p.yes());
        key("no");
        string(p.no());
        out.append('}');
    }

    private void fold(Fold f) {
        out.append("{\"weights\":");
        list(f.weights(), this::number);
        out.append(",\"rates\":{\"sites\":");
        list(f.rates().sites(), s -> {
            out.append('[');
            string(s.site());
            out.append(",[");
            number(s.decisions());
            out.append(',');
            number(s.agreed());
            out.append(',');
            number(s.covered());
            out.append("]]");
        });
        key("agree");
        number(f.rates().agree());
        key("cover");
        number(f.rates().cover());
        out.append("}}");
    }

    private void bindings(Bindings b) {
        out.append("{\"args\":");
        object(b.args(), (tool, a) -> {
            out.append('[').append(a.calls()).append(',');
            object(a.passed(), (arg, n) -> out.append(n));
            out.append(']');
        });
        key("sources");
        pairs(b.sources(), this::toolArg, this::traced);
        key("agreed");
        object(b.agreed(), (tool, a) -> {
            out.append("[[").append(a.unmentioned().agreed()).append(',').append(a.unmentioned().calls())
                    .append("],[").append(a.mentioned().agreed()).append(',').append(a.mentioned().calls()).append("]]");
        });
        if (!b.namedOther().isEmpty()) {
            key("named_other");
            object(b.namedOther(), (tool, u) -> out.append('[').append(u.used()).append(',').append(u.picks()).append(']'));
        }
        if (!b.describedRead().isEmpty()) {
            key("described_read");
            object(b.describedRead(), (tool, u) -> out.append('[').append(u.used()).append(',').append(u.picks()).append(']'));
        }
        if (!b.siteSources().isEmpty()) {
            key("site_sources");
            list(b.siteSources(), s -> {
                out.append("{\"tool\":");
                string(s.tool());
                key("arg");
                string(s.arg());
                key("site");
                string(s.site());
                key("source");
                out.append('[');
                string(s.source().tool());
                out.append(',');
                string(s.source().path());
                out.append(']');
                key("values");
                out.append(s.values()).append('}');
            });
        }
        if (!b.lists().isEmpty()) {
            key("lists");
            pairs(b.lists(), this::toolArg, this::traced);
        }
        if (!b.bare().isEmpty()) {
            key("bare");
            object(b.bare(), (tool, n) -> out.append(n));
        }
        if (!b.constants().isEmpty()) {
            key("constants");
            pairs(b.constants(), this::toolArg, v -> CanonicalJson.append(out, v));
        }
        if (!b.said().isEmpty()) {
            key("said");
            pairs(b.said(), this::toolArg, s -> {
                out.append("{\"values\":").append(s.values());
                key("shapes");
                pairs(s.shapes(), this::string, n -> out.append(n));
                out.append('}');
            });
        }
        out.append('}');
    }

    private void toolArg(Bindings.ToolArg k) {
        out.append('[');
        string(k.tool());
        out.append(',');
        string(k.arg());
        out.append(']');
    }

    private void traced(Bindings.Traced t) {
        out.append("{\"values\":").append(t.values());
        key("found");
        pairs(t.found(), source -> {
            out.append('[');
            string(source.tool());
            out.append(',');
            string(source.path());
            out.append(']');
        }, n -> out.append(n));
        out.append('}');
    }

    private void promoted(Promoted p) {
        Promoted.Bar bar = p.bar();
        out.append("{\"bar\":{\"threshold\":");
        number(bar.threshold());
        key("min_used");
        number(bar.minUsed());
        key("min_lower");
        number(bar.minLower());
        key("min_tasks");
        out.append(bar.minTasks()).append('}');
        key("sites");
        object(p.sites(), (site, s) -> {
            out.append("{\"decisions\":").append(s.decisions());
            key("lookups");
            out.append(s.lookups());
            key("used");
            out.append(s.used());
            key("tasks");
            out.append(s.tasks());
            key("lower");
            number(s.lower());
            key("promoted");
            out.append(s.promoted()).append('}');
        });
        out.append('}');
    }

    private void key(String name) {
        out.append(",\"").append(name).append("\":");
    }

    private void string(String s) {
        JsonText.appendQuoted(out, s);
    }

    private void number(double d) {
        out.append(CanonicalJson.formatDouble(d));
    }

    private <T> void list(Collection<T> items, java.util.function.Consumer<T> item) {
        out.append('[');
        boolean first = true;
        for (T t : items) {
            if (!first) {
                out.append(',');
            }
            first = false;
            item.accept(t);
        }
        out.append(']');
    }

    private <V> void object(Map<String, V> map, BiConsumer<String, V> value) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, V> e : map.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            string(e.getKey());
            out.append(':');
            value.accept(e.getKey(), e.getValue());
        }
        out.append('}');
    }

    private <K, V> void pairs(Map<K, V> map, java.util.function.Consumer<K> key, java.util.function.Consumer<V> value) {
        list(map.entrySet(), e -> {
            out.append('[');
            key.accept(e.getKey());
            out.append(',');
            value.accept(e.getValue());
            out.append(']');
        });
    }
}
