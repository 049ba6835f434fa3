package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The exported API names only exported types: every public or protected member of every public
 * type of the packages the module exports ({@code dev.stretto.proxy}, {@code
 * dev.stretto.proxy.flow}, {@code dev.stretto.proxy.share}; nested types too) takes, returns,
 * throws and extends types
 * of packages their modules export to everyone (the JDK's, this package, trace-reader's API),
 * never one of the internal packages a program on the module path cannot use. And no call of it
 * is ambiguous when an argument is null: no two overloads take the same number of arguments,
 * all of them objects.
 */
class ExportedApiTest {

    /** The packages the module exports: sessions, flows and pseudonymised copies of sessions. */
    private static final List<String> EXPORTED = List.of("dev.stretto.proxy", "dev.stretto.proxy.flow",
            "dev.stretto.proxy.share");

    private static List<Class<?>> exportedTypes() throws Exception {
        Path classes = Path.of(Proxy.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> out = new ArrayList<>();
        for (String pkg : EXPORTED) {
            try (Stream<Path> files = Files.list(classes.resolve(pkg.replace('.', '/')))) {
                for (Path f : files.sorted().toList()) {
                    String name = f.getFileName().toString();
                    if (name.endsWith(".class") && !name.contains("$") && !name.equals("package-info.class")) {
                        addPublic(Class.forName(pkg + "." + name.substring(0, name.length() - 6)), out);
                    }
                }
            }
        }
        assertEquals(true, out.size() > 20, "the exported packages' types: " + out);
        return out;
    }

    @Test
    void theModuleExportsTheApiPackagesToEveryoneAndNothingElse() {
        Module module = Proxy.class.getModule();
        assertTrue(module.isNamed(), "the tests run in the module");
        for (String pkg : module.getPackages()) {
            assertEquals(EXPORTED.contains(pkg), module.isExported(pkg), pkg);
        }
        assertTrue(module.getDescriptor().exports().stream().allMatch(e -> !e.isQualified()), "no qualified export");
    }

    @Test
    void everyExportedPackageHasTypes() throws Exception {
        List<Class<?>> types = exportedTypes();
        for (String pkg : EXPORTED) {
            assertTrue(types.stream().anyMatch(t -> t.getPackageName().equals(pkg)), pkg);
        }
    }

    private static void addPublic(Class<?> type, List<Class<?>> out) {
        if (!Modifier.isPublic(type.getModifiers())) {
            return;
        }
        out.add(type);
        for (Class<?> nested : type.getDeclaredClasses()) {
            addPublic(nested, out);
        }
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    @Test
    void noExportedSignatureNamesATypeOfAnInternalPackage() throws Exception {
        Map<String, TreeSet<String>> leaks = new TreeMap<>();
        for (Class<?> type : exportedTypes()) {
            List<Type> named = new ArrayList<>();
            named.add(type.getGenericSuperclass());
            named.addAll(List.of(type.getGenericInterfaces()));
            for (TypeVariable<?> v : type.getTypeParameters()) {
                named.addAll(List.of(v.getBounds()));
            }
            check(type.getName(), named, leaks);
            List<Executable> members = new ArrayList<>(List.of(type.getDeclaredMethods()));
            members.addAll(List.<Constructor<?>>of(type.getDeclaredConstructors()));
            for (Executable e : members) {
                if (!visible(e.getModifiers()) || e.isSynthetic()) {
                    continue;
                }
                List<Type> signature = new ArrayList<>(List.of(e.getGenericParameterTypes()));
                signature.addAll(List.of(e.getGenericExceptionTypes()));
                if (e instanceof Method m) {
                    signature.add(m.getGenericReturnType());
                }
                for (TypeVariable<?> v : e.getTypeParameters()) {
                    signature.addAll(List.of(v.getBounds()));
                }
                check(type.getName() + "." + e.getName(), signature, leaks);
            }
            for (Field f : type.getDeclaredFields()) {
                if (visible(f.getModifiers()) && !f.isSynthetic()) {
                    check(type.getName() + "." + f.getName(), List.of(f.getGenericType()), leaks);
                }
            }
        }
        assertEquals(Map.of(), leaks, "members whose signatures name types no program on the module path can use");
    }

    private static void check(String member, List<Type> types, Map<String, TreeSet<String>> leaks) {
        for (Type t : types) {
            for (Class<?> c : classesIn(t)) {
                if (!c.isPrimitive() && !c.getModule().isExported(c.getPackageName())) {
                    leaks.computeIfAbsent(member, k -> new TreeSet<>()).add(c.getName());
                }
            }
        }
    }

    private static List<Class<?>> classesIn(Type t) {
        List<Class<?>> out = new ArrayList<>();
        if (t == null) {
            return out;
        }
        switch (t) {
            case Class<?> c -> out.add(c.isArray() ? c.componentType() : c);
            case ParameterizedType p -> {
                out.addAll(classesIn(p.getRawType()));
                for (Type a : p.getActualTypeArguments()) {
                    out.addAll(classesIn(a));
                }
            }
            case GenericArrayType g -> out.addAll(classesIn(g.getGenericComponentType()));
            case WildcardType w -> {
                for (Type b : w.getUpperBounds()) {
                    out.addAll(classesIn(b));
                }
                for (Type b : w.getLowerBounds()) {
                    out.addAll(classesIn(b));
                }
            }
            case TypeVariable<?> v -> {
                // Its bounds are checked where it is declared.
            }
            default -> throw new IllegalArgumentException("a type of an unknown kind: " + t);
        }
        return out;
    }

    @Test
    void noTwoOverloadsTakeTheSameNumberOfObjectsSoThatANullArgumentIsNeverAmbiguous() throws Exception {
        TreeSet<String> ambiguous = new TreeSet<>();
        for (Class<?> type : exportedTypes()) {
            Map<String, List<Executable>> byName = new TreeMap<>();
            for (Method m : type.getDeclaredMethods()) {
                if (visible(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
                    byName.computeIfAbsent(m.getName() + "/" + m.getParameterCount(), k -> new ArrayList<>()).add(m);
                }
            }
            for (Constructor<?> c : type.getDeclaredConstructors()) {
                if (visible(c.getModifiers())) {
                    byName.computeIfAbsent("<init>/" + c.getParameterCount(), k -> new ArrayList<>()).add(c);
                }
            }
            for (Map.Entry<String, List<Executable>> e : byName.entrySet()) {
                List<Executable> objectsOnly = e.getValue().stream()
                        .filter(x -> x.getParameterCount() > 0
                                && Stream.of(x.getParameterTypes()).noneMatch(Class::isPrimitive))
                        .toList();
                if (objectsOnly.size() > 1) {
                    ambiguous.add(type.getName() + "." + e.getKey() + ": " + objectsOnly.stream()
                            .map(Executable::toGenericString).toList());
                }
            }
        }
        assertEquals(new TreeSet<String>(), ambiguous);
    }
}
