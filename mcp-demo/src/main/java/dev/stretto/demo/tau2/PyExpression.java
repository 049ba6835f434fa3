package dev.stretto.demo.tau2;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

/**
 * τ²'s {@code calculate}: {@code str(round(float(eval(expression)), 2))} on an expression of
 * digits, {@code + - * / ( ) .} and spaces, evaluated with Python's semantics: integers of any
 * size, true division {@code /}, floor division {@code //}, powers {@code **} (binding tighter
 * than a unary minus on their left), the empty tuple {@code ()}, and a number followed by
 * parentheses being a call. Errors carry Python's messages: the tokenizer's first (leading
 * zeros, an unmatched or unclosed parenthesis), then {@code invalid syntax}, then the first
 * one evaluation raises.
 */
final class PyExpression {
    /** Integer powers past this many bits are refused rather than computed for minutes. */
    private static final long MAX_POWER_BITS = 1L << 22;
    private static final String OVERFLOW = "(34, 'Numerical result out of range')";

    /** A Python value the expression can make. */
    private sealed interface Value {
    }

    private record Int(BigInteger v) implements Value {
    }

    private record Flt(double v) implements Value {
    }

    /** Always empty: without commas no other tuple can be written. */
    private record Tuple() implements Value {
    }

    /** A complex number, made by a negative base to a fractional power; it can only fail later. */
    private record Complex(double re, double im) implements Value {
    }

    private sealed interface Token {
    }

    private record Num(String text) implements Token {
    }

    private record Op(String text) implements Token {
    }

    private final List<Token> tokens;
    private int at;

    private PyExpression(List<Token> tokens) {
        this.tokens = tokens;
    }

    /**
     * The expression's value as τ² prints it.
     *
     * @throws ToolError with Python's message when it cannot be evaluated
     */
    static String calculate(String expression) {
        for (int i = 0; i < expression.length(); i++) {
            if ("0123456789+-*/(). ".indexOf(expression.charAt(i)) < 0) {
                throw new ToolError("Invalid characters in expression");
            }
        }
        List<Token> tokens = tokenize(expression);
        if (tokens.isEmpty()) {
            throw new ToolError("invalid syntax (<string>, line 0)");
        }
        PyExpression parser = new PyExpression(tokens);
        Node tree = parser.sum();
        if (parser.at != tokens.size()) {
            throw syntax();
        }
        return PyFloats.repr(PyFloats.round(toFloat(tree.eval()), 2));
    }

    private static ToolError syntax() {
        return new ToolError("invalid syntax (<string>, line 1)");
    }

    private static List<Token> tokenize(String s) {
        List<Token> out = new ArrayList<>();
        int depth = 0;
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == ' ') {
                i++;
            } else if (Character.isDigit(c) || c == '.' && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1))) {
                int start = i;
                while (i < s.length() && Character.isDigit(s.charAt(i))) {
                    i++;
                }
                boolean isFloat = i < s.length() && s.charAt(i) == '.';
                if (isFloat) {
                    i++;
                    while (i < s.length() && Character.isDigit(s.charAt(i))) {
                        i++;
                    }
                }
                String text = s.substring(start, i);
                if (!isFloat && text.length() > 1 && text.charAt(0) == '0' && !text.chars().allMatch(ch -> ch == '0')) {
                    throw new ToolError("leading zeros in decimal integer literals are not permitted; "
                            + "use an 0o prefix for octal integers (<string>, line 1)");
                }
                out.add(new Num(text));
            } else if (c == '*' || c == '/') {
                boolean doubled = i + 1 < s.length() && s.charAt(i + 1) == c;
                out.add(new Op(doubled ? "" + c + c : "" + c));
                i += doubled ? 2 : 1;
            } else {
                if (c == '(') {
                    depth++;
                } else if (c == ')') {
                    if (depth == 0) {
                        throw new ToolError("unmatched ')' (<string>, line 1)");
                    }
                    depth--;
                }
                out.add(new Op(String.valueOf(c)));
                i++;
            }
        }
        if (depth > 0) {
            throw new ToolError("'(' was never closed (<string>, line 1)");
        }
        return out;
    }

    // --- parsing: Python's grammar for these tokens -------------------------------------

    /** A parsed expression. */
    @FunctionalInterface
    private interface Node {
        Value eval();
    }

    private boolean peek(String op) {
        return at < tokens.size() && tokens.get(at) instanceof Op(String t) && t.equals(op);
    }

    private Node sum() {
        Node left = term();
        while (peek("+") || peek("-")) {
            String op = ((Op) tokens.get(at++)).text();
            Node l = left;
            Node r = term();
            left = () -> binary(op, l.eval(), r.eval());
        }
        return left;
    }

    private Node term() {
        Node left = factor();
        while (peek("*") || peek("/") || peek("//")) {
            String op = ((Op) tokens.get(at++)).text();
            Node l = left;
            Node r = factor();
            left = () -> binary(op, l.eval(), r.eval());
        }
        return left;
    }

    private Node factor() {
        if (peek("+") || peek("-")) {
            String op = ((Op) tokens.get(at++)).text();
            Node operand = factor();
            return () -> unary(op, operand.eval());
        }
        return power();
    }

    private Node power() {
        Node base = primary();
        if (peek("**")) {
            at++;
            Node exponent = factor();
            return () -> binary("**", base.eval(), exponent.eval());
        }
        return base;
    }

    private Node primary() {
        Node node = atom();
        while (peek("(")) {
            at++;
            Node callee = node;
            Node argument = peek(")") ? null : sum();
            closeParenthesis();
            node = () -> {
                Value f = callee.eval();
                if (argument != null) {
                    argument.eval();
                }
                throw new ToolError("'" + typeName(f) + "' object is not callable");
            };
        }
        return node;
    }

    private Node atom() {
        if (at >= tokens.size()) {
            throw syntax();
        }
        Token t = tokens.get(at++);
        if (t instanceof Num(String text)) {
            Value v = text.contains(".") ? new Flt(Double.parseDouble(text)) : new Int(new BigInteger(text));
            return () -> v;
        }
        if (t instanceof Op(String op) && op.equals("(")) {
            if (peek(")")) {
                at++;
                return Tuple::new;
            }
            Node inner = sum();
            closeParenthesis();
            return inner;
        }
        throw syntax();
    }

    /**
     * The {@code )} after an expression in parentheses. Two expressions side by side there are
     * what CPython's parser takes for a missing comma; a number is the only token that can
     * follow a whole expression and start another.
     */
    private void closeParenthesis() {
        if (!peek(")")) {
            if (at < tokens.size() && tokens.get(at) instanceof Num) {
                throw new ToolError("invalid syntax. Perhaps you forgot a comma? (<string>, line 1)");
            }
            throw syntax();
        }
        at++;
    }

    // --- evaluation: Python's numeric tower -----------------------------------------------

    private static String typeName(Value v) {
        return switch (v) {
            case Int _ -> "int";
            case Flt _ -> "float";
            case Tuple _ -> "tuple";
            case Complex _ -> "complex";
        };
    }

    private static Value unary(String op, Value v) {
        boolean minus = op.equals("-");
        return switch (v) {
            case Int(BigInteger i) -> new Int(minus ? i.negate() : i);
            case Flt(double d) -> new Flt(minus ? -d : d);
            case Complex(double re, double im) -> minus ? new Complex(-re, -im) : v;
            case Tuple _ -> throw new ToolError("bad operand type for unary " + op + ": 'tuple'");
        };
    }

    private static Value binary(String op, Value a, Value b) {
        if (a instanceof Tuple || b instanceof Tuple) {
            return tupleOp(op, a, b);
        }
        if (a instanceof Complex || b instanceof Complex) {
            return complexOp(op, a, b);
        }
        if (a instanceof Int(BigInteger x) && b instanceof Int(BigInteger y)) {
            return intOp(op, x, y);
        }
        return floatOp(op, toDouble(a), toDouble(b));
    }

    private static Value tupleOp(String op, Value a, Value b) {
        switch (op) {
            case "+" -> {
                if (a instanceof Tuple && b instanceof Tuple) {
                    return a;
                }
                if (a instanceof Tuple) {
                    throw new ToolError("can only concatenate tuple (not \"" + typeName(b) + "\") to tuple");
                }
            }
            case "*" -> {
                Value other = a instanceof Tuple ? b : a;
                if (other instanceof Int) {
                    return new Tuple();
                }
                throw new ToolError("can't multiply sequence by non-int of type '" + typeName(other) + "'");
            }
            default -> {
            }
        }
        throw new ToolError("unsupported operand type(s) for " + (op.equals("**") ? "** or pow()" : op) + ": '"
                + typeName(a) + "' and '" + typeName(b) + "'");
    }

    private static Value intOp(String op, BigInteger x, BigInteger y) {
        return switch (op) {
            case "+" -> new Int(x.add(y));
            case "-" -> new Int(x.subtract(y));
            case "*" -> new Int(x.multiply(y));
            case "/" -> {
                if (y.signum() == 0) {
                    throw new ToolError("division by zero");
                }
                yield new Flt(trueDivide(x, y));
            }
            case "//" -> {
                if (y.signum() == 0) {
                    throw new ToolError("integer division or modulo by zero");
                }
                BigInteger[] qr = x.divideAndRemainder(y);
                yield new Int(qr[1].signum() != 0 && qr[1].signum() != y.signum() ? qr[0].subtract(BigInteger.ONE)
                        : qr[0]);
            }
            case "**" -> {
                if (y.signum() < 0) {
                    yield floatOp("**", toDouble(new Int(x)), toDouble(new Int(y)));
                }
                if (x.abs().compareTo(BigInteger.ONE) <= 0) {
                    yield new Int(x.signum() == 0 ? (y.signum() == 0 ? BigInteger.ONE : BigInteger.ZERO)
                            : x.signum() > 0 || !y.testBit(0) ? BigInteger.ONE : BigInteger.ONE.negate());
                }
                if (y.bitLength() > 31 || (long) x.abs().bitLength() * y.intValue() > MAX_POWER_BITS) {
                    throw new ToolError("the power is too large to compute");
                }
                yield new Int(x.pow(y.intValue()));
            }
            default -> throw new IllegalStateException(op);
        };
    }

    /** int / int, correctly rounded as Python's long true division is. */
    private static double trueDivide(BigInteger x, BigInteger y) {
        if (x.bitLength() <= 53 && y.bitLength() <= 53) {
            return x.doubleValue() / y.doubleValue();
        }
        double q = new BigDecimal(x).divide(new BigDecimal(y), new MathContext(80)).doubleValue();
        if (Double.isInfinite(q)) {
            throw new ToolError("integer division result too large for a float");
        }
        return q;
    }

    private static Value floatOp(String op, double x, double y) {
        return switch (op) {
            case "+" -> new Flt(x + y);
            case "-" -> new Flt(x - y);
            case "*" -> new Flt(x * y);
            case "/" -> {
                if (y == 0) {
                    throw new ToolError("float division by zero");
                }
                yield new Flt(x / y);
            }
            case "//" -> {
                if (y == 0) {
                    throw new ToolError("float floor division by zero");
                }
                yield new Flt(floorDivide(x, y));
            }
            case "**" -> power(x, y);
            default -> throw new IllegalStateException(op);
        };
    }

    /** CPython's float_floor_div, by way of its float_divmod. */
    private static double floorDivide(double vx, double wx) {
        double mod = vx % wx;
        double div = (vx - mod) / wx;
        if (mod != 0) {
            if ((wx < 0) != (mod < 0)) {
                div -= 1.0;
            }
        }
        double floordiv;
        if (div != 0) {
            floordiv = Math.floor(div);
            if (div - floordiv > 0.5) {
                floordiv += 1.0;
            }
        } else {
            floordiv = Math.copySign(0.0, vx / wx);
        }
        return floordiv;
    }

    /** CPython's float_pow. */
    private static Value power(double iv, double iw) {
        if (iw == 0) {
            return new Flt(1.0);
        }
        if (Double.isNaN(iv)) {
            return new Flt(iv);
        }
        if (Double.isNaN(iw)) {
            return new Flt(iv == 1.0 ? 1.0 : iw);
        }
        if (Double.isInfinite(iw)) {
            double a = Math.abs(iv);
            return new Flt(a == 1.0 ? 1.0 : (iw > 0) == (a > 1.0) ? Math.abs(iw) : 0.0);
        }
        boolean iwOdd = Math.abs(iw) % 2.0 == 1.0;
        if (Double.isInfinite(iv)) {
            return new Flt(iw > 0 ? (iwOdd ? iv : Math.abs(iv)) : (iwOdd ? Math.copySign(0.0, iv) : 0.0));
        }
        if (iv == 0.0) {
            if (iw < 0) {
                throw new ToolError("0.0 cannot be raised to a negative power");
            }
            return new Flt(iwOdd ? iv : 0.0);
        }
        boolean negate = false;
        if (iv < 0.0) {
            if (iw != Math.floor(iw)) {
                return new Complex(Double.NaN, Double.NaN);
            }
            iv = -iv;
            negate = iwOdd;
        }
        if (iv == 1.0) {
            return new Flt(negate ? -1.0 : 1.0);
        }
        double ix = StrictMath.pow(iv, iw);
        if (Double.isInfinite(ix)) {
            throw new ToolError(OVERFLOW);
        }
        return new Flt(negate ? -ix : ix);
    }

    private static Value complexOp(String op, Value a, Value b) {
        if (op.equals("//")) {
            throw new ToolError("unsupported operand type(s) for //: '" + typeName(a) + "' and '" + typeName(b) + "'");
        }
        if (op.equals("/") && isZero(b)) {
            throw new ToolError("complex division by zero");
        }
        if (op.equals("**") && isZero(a) && !(b instanceof Complex) && toDouble(b) < 0) {
            throw new ToolError("0.0 to a negative or complex power");
        }
        return new Complex(Double.NaN, Double.NaN);
    }

    private static boolean isZero(Value v) {
        return switch (v) {
            case Complex(double re, double im) -> re == 0 && im == 0;
            case Int(BigInteger i) -> i.signum() == 0;
            case Flt(double d) -> d == 0;
            case Tuple _ -> false;
        };
    }

    /** A real number as a float, failing as Python's int-to-float conversion does. */
    private static double toDouble(Value v) {
        return switch (v) {
            case Flt(double d) -> d;
            case Int(BigInteger i) -> {
                double d = i.doubleValue();
                if (Double.isInfinite(d)) {
                    throw new ToolError("int too large to convert to float");
                }
                yield d;
            }
            case Tuple _, Complex _ -> throw new IllegalStateException("not a real number");
        };
    }

    /** {@code float(value)}. */
    private static double toFloat(Value v) {
        if (v instanceof Tuple || v instanceof Complex) {
            throw new ToolError("float() argument must be a string or a real number, not '" + typeName(v) + "'");
        }
        return toDouble(v);
    }
}
