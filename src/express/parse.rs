//! Reading one Express statement into its syntax tree, each node with the byte offset where it
//! starts in the whole input.
//!
//! The grammar is the A2UI project's `Express.g4`: a statement is an assignment (`name = ...`,
//! `$/path = ...`) or an expression; white space, `;` and comments (`#`, `//`, `/* */`) are
//! skipped between tokens; lists, maps and argument lists admit a trailing comma after an
//! element. Identifiers are Unicode identifiers (UAX #31), as the Express specification asks;
//! `Express.g4` spells out only their ASCII subset.

use serde_json::Number;

use super::{ExpressError, ExpressErrorKind};

/// How deeply lists, maps and calls may nest in one statement.
const MAX_NESTING: usize = 64;

/// One statement, classified by its shape.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Statement {
    /// `id = Name(args...)`: a component, unless the catalog says `Name` is a function (then
    /// it is a definition, substituted where `id` is named).
    Component {
        /// The variable, which becomes the component's id.
        id: Name,
        /// The call.
        call: Call,
    },
    /// `$/path = value`: a value of the surface's data model.
    Data {
        /// The path, without its `$` (`/user/name`; empty for the whole model).
        path: Name,
        /// The value.
        value: Expr,
    },
    /// `name = value` for any value that is not a component call: a map, an
    /// `Event(...)`, a `_template(...)`, a check, a literal. It emits nothing of its own and is
    /// substituted wherever `name` is used.
    Definition {
        /// The variable.
        name: Name,
        /// The value it stands for.
        value: Expr,
    },
    /// `surface("id"[, "catalogId"])`: the statements after it are for that surface.
    Surface(Call),
    /// `deleteSurface("id")`.
    DeleteSurface(Call),
    /// Any other call written as a statement of its own: the renderer runs that function.
    Call(Call),
    /// Any other expression written alone (a name, a literal): the grammar admits it, and it
    /// means nothing.
    Expression(Expr),
}

/// A name (an identifier or a path) and where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Name {
    /// Where it starts.
    pub(crate) at: u64,
    /// The name itself.
    pub(crate) text: String,
}

/// An expression and where it starts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Expr {
    /// Where it starts.
    pub(crate) at: u64,
    /// What it is.
    pub(crate) kind: ExprKind,
}

/// What an [`Expr`] is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ExprKind {
    /// A string, its escapes resolved.
    String(String),
    /// A number.
    Number(Number),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// `[a, b, ...]`.
    List(Vec<Expr>),
    /// `{key: value, "key": value, ...}`, in written order.
    Map(Vec<(Name, Expr)>),
    /// A binding: `$/abs/path`, `$relative`, or `$` (the path without its `$`).
    Path(String),
    /// `?name` or `?name(args...)`.
    Check {
        /// The function name, without `?`.
        name: Name,
        /// The arguments, `None` when written without parentheses.
        args: Option<Vec<Expr>>,
    },
    /// `_`: an argument left out.
    Placeholder,
    /// `_template($/path, component)`: a child list repeated over a data list.
    Template {
        /// The list's path, without its `$`.
        path: Name,
        /// The component rendered for each item.
        component: Box<Expr>,
    },
    /// `Name(args...)`: a component, a function, `Event`.
    Call(Call),
    /// A variable, by name.
    Reference(String),
}

/// A call: `Name(positional..., key=value...)`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Call {
    /// Where the call starts.
    pub(crate) at: u64,
    /// The name called.
    pub(crate) callee: Name,
    /// The arguments, in written order.
    pub(crate) args: Vec<Arg>,
}

/// One argument of a [`Call`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Arg {
    /// The keyword, for `key=value`.
    pub(crate) key: Option<Name>,
    /// The value.
    pub(crate) value: Expr,
}

impl Call {
    /// The positional arguments.
    pub(crate) fn positional(&self) -> impl Iterator<Item = &Expr> {
        self.args
            .iter()
            .filter(|a| a.key.is_none())
            .map(|a| &a.value)
    }

    /// The argument given by keyword `key`, else the positional one at `index`.
    pub(crate) fn arg(&self, index: usize, key: &str) -> Option<&Expr> {
        self.args
            .iter()
            .find(|a| a.key.as_ref().is_some_and(|k| k.text == key))
            .map(|a| &a.value)
            .or_else(|| self.positional().nth(index))
    }
}

/// Reads `text`, one whole statement starting at byte `offset` of the input.
pub(crate) fn statement(text: &str, offset: u64) -> Result<Statement, ExpressError> {
    let tokens = Lexer::new(text, offset).tokens()?;
    let mut parser = Parser {
        tokens: &tokens,
        next: 0,
        depth: 0,
        end: offset + text.len() as u64,
    };
    let statement = parser.statement()?;
    match parser.peek() {
        None => Ok(statement),
        Some(token) => Err(error(
            token.at,
            format!(
                "expected the end of the statement, found {}",
                token.kind.describe()
            ),
        )),
    }
}

fn error(at: u64, message: impl Into<String>) -> ExpressError {
    ExpressError::of(ExpressErrorKind::Parse, Some(at), message)
}

/// A token and where it starts.
#[derive(Debug, Clone, PartialEq)]
struct Token {
    at: u64,
    kind: TokenKind,
}

#[derive(Debug, Clone, PartialEq)]
enum TokenKind {
    Identifier(String),
    /// A path, without its `$`.
    Path(String),
    /// A check name, without its `?`.
    Check(String),
    Number(Number),
    String(String),
    True,
    False,
    Null,
    Underscore,
    Open(u8),
    Close(u8),
    Comma,
    Colon,
    Equals,
}

impl TokenKind {
    fn describe(&self) -> String {
        match self {
            TokenKind::Identifier(name) => format!("'{name}'"),
            TokenKind::Path(path) => format!("'${path}'"),
            TokenKind::Check(name) => format!("'?{name}'"),
            TokenKind::Number(n) => format!("'{n}'"),
            TokenKind::String(_) => "a string".to_owned(),
            TokenKind::True => "'true'".to_owned(),
            TokenKind::False => "'false'".to_owned(),
            TokenKind::Null => "'null'".to_owned(),
            TokenKind::Underscore => "'_'".to_owned(),
            TokenKind::Open(b) | TokenKind::Close(b) => format!("'{}'", char::from(*b)),
            TokenKind::Comma => "','".to_owned(),
            TokenKind::Colon => "':'".to_owned(),
            TokenKind::Equals => "'='".to_owned(),
        }
    }
}

/// Splits one statement's text into tokens.
struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    base: u64,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str, base: u64) -> Self {
        Lexer {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            base,
        }
    }

    fn at(&self, pos: usize) -> u64 {
        self.base + pos as u64
    }

    fn byte(&self, pos: usize) -> Option<u8> {
        self.bytes.get(pos).copied()
    }

    fn tokens(mut self) -> Result<Vec<Token>, ExpressError> {
        let mut out = Vec::new();
        while let Some(token) = self.token()? {
            out.push(token);
        }
        Ok(out)
    }

    /// The next token, past white space and comments.
    fn token(&mut self) -> Result<Option<Token>, ExpressError> {
        self.skip_blank()?;
        let start = self.pos;
        let Some(byte) = self.byte(start) else {
            return Ok(None);
        };
        let at = self.at(start);
        let kind = match byte {
            b'(' | b'[' | b'{' => {
                self.pos += 1;
                TokenKind::Open(byte)
            }
            b')' | b']' | b'}' => {
                self.pos += 1;
                TokenKind::Close(byte)
            }
            b',' => {
                self.pos += 1;
                TokenKind::Comma
            }
            b':' => {
                self.pos += 1;
                TokenKind::Colon
            }
            b'=' => {
                self.pos += 1;
                TokenKind::Equals
            }
            b'"' => TokenKind::String(self.string(false)?),
            b'r' | b'R' if self.byte(start + 1) == Some(b'"') => {
                self.pos += 1;
                TokenKind::String(self.string(true)?)
            }
            b'$' => {
                self.pos += 1;
                let from = self.pos;
                while self
                    .byte(self.pos)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'/')
                {
                    self.pos += 1;
                }
                TokenKind::Path(self.slice(from, self.pos).to_owned())
            }
            b'?' => {
                self.pos += 1;
                let from = self.pos;
                if !self
                    .byte(from)
                    .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
                {
                    return Err(error(at, "expected a check name after '?'"));
                }
                while self
                    .byte(self.pos)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
                {
                    self.pos += 1;
                }
                TokenKind::Check(self.slice(from, self.pos).to_owned())
            }
            b'-' | b'0'..=b'9' => TokenKind::Number(self.number()?),
            _ => self.word(at)?,
        };
        Ok(Some(Token { at, kind }))
    }

    fn slice(&self, from: usize, to: usize) -> &'a str {
        self.text.get(from..to).unwrap_or_default()
    }

    /// Skips white space, `;` and comments.
    fn skip_blank(&mut self) -> Result<(), ExpressError> {
        loop {
            match (self.byte(self.pos), self.byte(self.pos + 1)) {
                (Some(b' ' | b'\t' | b'\r' | b'\n' | b';'), _) => self.pos += 1,
                (Some(b'#'), _) | (Some(b'/'), Some(b'/')) => {
                    let rest = self.bytes.get(self.pos..).unwrap_or_default();
                    self.pos += memchr::memchr(b'\n', rest).unwrap_or(rest.len());
                }
                (Some(b'/'), Some(b'*')) => {
                    let open = self.pos;
                    let rest = self.bytes.get(open + 2..).unwrap_or_default();
                    match memchr::memmem::find(rest, b"*/") {
                        Some(end) => self.pos = open + 2 + end + 2,
                        None => {
                            return Err(error(self.at(open), "expected '*/' to close the comment"));
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// An identifier or keyword.
    fn word(&mut self, at: u64) -> Result<TokenKind, ExpressError> {
        let from = self.pos;
        let rest = self.slice(from, self.bytes.len());
        let mut chars = rest.char_indices();
        let first = chars.next().map(|(_, c)| c);
        if !first.is_some_and(|c| c == '_' || unicode_ident::is_xid_start(c)) {
            let shown = first.map_or_else(String::new, |c| c.to_string());
            return Err(error(at, format!("unexpected character '{shown}'")));
        }
        let len = chars
            .find(|&(_, c)| !unicode_ident::is_xid_continue(c))
            .map_or(rest.len(), |(i, _)| i);
        self.pos = from + len;
        let word = self.slice(from, self.pos);
        Ok(match word {
            "true" => TokenKind::True,
            "false" => TokenKind::False,
            "null" => TokenKind::Null,
            "_" => TokenKind::Underscore,
            _ => TokenKind::Identifier(word.to_owned()),
        })
    }

    /// `-? digits (. digits)?`.
    fn number(&mut self) -> Result<Number, ExpressError> {
        let from = self.pos;
        let at = self.at(from);
        if self.byte(self.pos) == Some(b'-') {
            self.pos += 1;
        }
        let digits = |lexer: &mut Self| {
            let start = lexer.pos;
            while lexer.byte(lexer.pos).is_some_and(|b| b.is_ascii_digit()) {
                lexer.pos += 1;
            }
            lexer.pos > start
        };
        if !digits(self) {
            return Err(error(at, "expected a digit after '-'"));
        }
        let mut fraction = false;
        if self.byte(self.pos) == Some(b'.') {
            self.pos += 1;
            if !digits(self) {
                return Err(error(self.at(self.pos), "expected a digit after '.'"));
            }
            fraction = true;
        }
        let text = self.slice(from, self.pos);
        let number = if fraction {
            None
        } else {
            text.parse::<i64>()
                .ok()
                .map(Number::from)
                .or_else(|| text.parse::<u64>().ok().map(Number::from))
        };
        number
            .or_else(|| text.parse::<f64>().ok().and_then(Number::from_f64))
            .ok_or_else(|| error(at, format!("the number {text} is out of range")))
    }

    /// A string from its opening quote (after the `r` of a raw one).
    fn string(&mut self, raw: bool) -> Result<String, ExpressError> {
        let open = self.pos;
        let at = self.at(if raw { open.saturating_sub(1) } else { open });
        let triple = self.bytes.get(open..open + 3) == Some(b"\"\"\"");
        let quote_len = if triple { 3 } else { 1 };
        let body_start = open + quote_len;
        let mut pos = body_start;
        let closing = loop {
            match self.byte(pos) {
                None => {
                    let quote = if triple { "\"\"\"" } else { "\"" };
                    return Err(error(at, format!("expected {quote} to close the string")));
                }
                Some(b'\\') if !raw => pos += 2,
                Some(b'"') if !triple || self.bytes.get(pos..pos + 3) == Some(b"\"\"\"") => {
                    break pos;
                }
                Some(_) => pos += 1,
            }
        };
        self.pos = closing + quote_len;
        let body = self.slice(body_start, closing);
        Ok(if raw { body.to_owned() } else { unescape(body) })
    }
}

/// A string's body with `\n`, `\r`, `\t`, `\\` and `\"` resolved; any other `\` is kept as
/// written.
fn unescape(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Reads a statement's tokens.
struct Parser<'t> {
    tokens: &'t [Token],
    next: usize,
    depth: usize,
    /// Where the statement's text ends, for errors at its end.
    end: u64,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.next)
    }

    fn peek_kind(&self, ahead: usize) -> Option<&TokenKind> {
        self.tokens.get(self.next + ahead).map(|t| &t.kind)
    }

    fn bump(&mut self) -> Option<&Token> {
        let token = self.tokens.get(self.next);
        self.next += 1;
        token
    }

    /// Where the next token is, or the end of the statement.
    fn here(&self) -> u64 {
        self.peek().map_or(self.end, |t| t.at)
    }

    /// What the next token is, in words.
    fn found(&self) -> String {
        self.peek().map_or_else(
            || "the end of the statement".to_owned(),
            |t| t.kind.describe(),
        )
    }

    fn statement(&mut self) -> Result<Statement, ExpressError> {
        let Some(first) = self.peek().cloned() else {
            return Err(error(self.end, "expected a statement"));
        };
        if self.peek_kind(1) == Some(&TokenKind::Equals) {
            match &first.kind {
                TokenKind::Identifier(name) => {
                    self.next += 2;
                    let target = Name {
                        at: first.at,
                        text: name.clone(),
                    };
                    let value = self.expr()?;
                    return Ok(match value.kind {
                        ExprKind::Call(call) if call.callee.text != "Event" => {
                            Statement::Component { id: target, call }
                        }
                        _ => Statement::Definition {
                            name: target,
                            value,
                        },
                    });
                }
                TokenKind::Path(path) => {
                    self.next += 2;
                    let path = Name {
                        at: first.at,
                        text: path.clone(),
                    };
                    let value = self.expr()?;
                    return Ok(Statement::Data { path, value });
                }
                _ => {}
            }
        }
        let value = self.expr()?;
        match value.kind {
            ExprKind::Call(call) => Ok(match call.callee.text.as_str() {
                "surface" => Statement::Surface(call),
                "deleteSurface" => Statement::DeleteSurface(call),
                _ => Statement::Call(call),
            }),
            _ => Ok(Statement::Expression(value)),
        }
    }

    fn expr(&mut self) -> Result<Expr, ExpressError> {
        let at = self.here();
        let Some(token) = self.bump().cloned() else {
            return Err(error(
                at,
                "expected a value, found the end of the statement",
            ));
        };
        let kind = match token.kind {
            TokenKind::String(s) => ExprKind::String(s),
            TokenKind::Number(n) => ExprKind::Number(n),
            TokenKind::True => ExprKind::Bool(true),
            TokenKind::False => ExprKind::Bool(false),
            TokenKind::Null => ExprKind::Null,
            TokenKind::Underscore => ExprKind::Placeholder,
            TokenKind::Path(path) => ExprKind::Path(path),
            TokenKind::Open(b'[') => self.nested(|p| p.list(at))?,
            TokenKind::Open(b'{') => self.nested(|p| p.map(at))?,
            TokenKind::Check(name) => {
                let name = Name { at, text: name };
                let args = if self.peek_kind(0) == Some(&TokenKind::Open(b'(')) {
                    self.next += 1;
                    Some(self.nested(|p| p.check_args(&name))?)
                } else {
                    None
                };
                ExprKind::Check { name, args }
            }
            TokenKind::Identifier(name) => {
                if self.peek_kind(0) == Some(&TokenKind::Open(b'(')) {
                    self.next += 1;
                    let callee = Name { at, text: name };
                    let call = self.nested(|p| p.call(callee))?;
                    if call.callee.text == "_template" {
                        template(call)?
                    } else {
                        ExprKind::Call(call)
                    }
                } else {
                    ExprKind::Reference(name)
                }
            }
            other => {
                return Err(error(
                    at,
                    format!("expected a value, found {}", other.describe()),
                ));
            }
        };
        Ok(Expr { at, kind })
    }

    /// Runs `read` one nesting level deeper.
    fn nested<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<T, ExpressError>,
    ) -> Result<T, ExpressError> {
        if self.depth >= MAX_NESTING {
            return Err(error(
                self.here(),
                format!("lists, maps and calls nest deeper than {MAX_NESTING} levels"),
            ));
        }
        self.depth += 1;
        let out = read(self);
        self.depth -= 1;
        out
    }

    /// After an element: `,` or the closing bracket; `true` when the list is over. `what`
    /// says where the list is, for the error when neither follows (made only then).
    fn separator(
        &mut self,
        close: u8,
        what: impl FnOnce() -> String,
    ) -> Result<bool, ExpressError> {
        match self.peek_kind(0) {
            Some(TokenKind::Comma) => {
                self.next += 1;
                if self.peek_kind(0) == Some(&TokenKind::Close(close)) {
                    self.next += 1;
                    return Ok(true);
                }
                Ok(false)
            }
            Some(TokenKind::Close(b)) if *b == close => {
                self.next += 1;
                Ok(true)
            }
            _ => Err(error(
                self.here(),
                format!(
                    "expected ',' or '{}' {}, found {}",
                    char::from(close),
                    what(),
                    self.found()
                ),
            )),
        }
    }

    /// Whether the next token is `close`, which it consumes.
    fn closes(&mut self, close: u8) -> bool {
        let closes = self.peek_kind(0) == Some(&TokenKind::Close(close));
        if closes {
            self.next += 1;
        }
        closes
    }

    fn list(&mut self, at: u64) -> Result<ExprKind, ExpressError> {
        let mut items = Vec::new();
        if !self.closes(b']') {
            loop {
                items.push(self.element("the list")?);
                if self.separator(b']', || format!("in the list opened at byte {at}"))? {
                    break;
                }
            }
        }
        Ok(ExprKind::List(items))
    }

    /// An element of a list or argument list: a comma or a closing bracket here is an empty
    /// element, which the grammar does not admit.
    fn element(&mut self, what: &str) -> Result<Expr, ExpressError> {
        if let Some(TokenKind::Comma) = self.peek_kind(0) {
            return Err(error(
                self.here(),
                format!("expected a value before ',' in {what}"),
            ));
        }
        self.expr()
    }

    fn map(&mut self, at: u64) -> Result<ExprKind, ExpressError> {
        let mut entries = Vec::new();
        if !self.closes(b'}') {
            loop {
                let key_at = self.here();
                let key = match self.bump().map(|t| &t.kind) {
                    Some(TokenKind::Identifier(k) | TokenKind::String(k)) => k.clone(),
                    _ => {
                        self.next -= 1;
                        return Err(error(
                            key_at,
                            format!(
                                "expected a key (a name or a string) in the map opened at byte {at}, found {}",
                                self.found()
                            ),
                        ));
                    }
                };
                if self.bump().map(|t| &t.kind) != Some(&TokenKind::Colon) {
                    self.next -= 1;
                    return Err(error(
                        self.here(),
                        format!("expected ':' after the key '{key}', found {}", self.found()),
                    ));
                }
                let value = self.expr()?;
                entries.push((
                    Name {
                        at: key_at,
                        text: key,
                    },
                    value,
                ));
                if self.separator(b'}', || format!("in the map opened at byte {at}"))? {
                    break;
                }
            }
        }
        Ok(ExprKind::Map(entries))
    }

    fn call(&mut self, callee: Name) -> Result<Call, ExpressError> {
        let mut args = Vec::new();
        let what = format!("the arguments of {}", callee.text);
        if !self.closes(b')') {
            loop {
                let key = match (self.peek(), self.peek_kind(1)) {
                    (
                        Some(Token {
                            at,
                            kind: TokenKind::Identifier(key),
                        }),
                        Some(TokenKind::Equals),
                    ) => {
                        let key = Name {
                            at: *at,
                            text: key.clone(),
                        };
                        self.next += 2;
                        Some(key)
                    }
                    _ => None,
                };
                let value = self.element(&what)?;
                args.push(Arg { key, value });
                if self.separator(b')', || format!("to close the call of {}", callee.text))? {
                    break;
                }
            }
        }
        Ok(Call {
            at: callee.at,
            callee,
            args,
        })
    }

    fn check_args(&mut self, name: &Name) -> Result<Vec<Expr>, ExpressError> {
        let mut args = Vec::new();
        let what = format!("the arguments of ?{}", name.text);
        if !self.closes(b')') {
            loop {
                args.push(self.element(&what)?);
                if self.separator(b')', || format!("to close the check ?{}", name.text))? {
                    break;
                }
            }
        }
        Ok(args)
    }
}

/// `_template(path, component)`: exactly a path and a component.
fn template(call: Call) -> Result<ExprKind, ExpressError> {
    let mut args = call.args.into_iter();
    let (Some(path), Some(component), None) = (args.next(), args.next(), args.next()) else {
        return Err(error(
            call.at,
            "expected _template($/path, component): a path and a component",
        ));
    };
    let (None, None) = (&path.key, &component.key) else {
        return Err(error(
            call.at,
            "expected _template($/path, component) with positional arguments",
        ));
    };
    let ExprKind::Path(text) = path.value.kind else {
        return Err(error(
            path.value.at,
            "expected a path ($/...) as the first argument of _template",
        ));
    };
    if matches!(
        component.value.kind,
        ExprKind::Placeholder | ExprKind::Path(_)
    ) {
        return Err(error(
            component.value.at,
            "expected a component as the second argument of _template",
        ));
    }
    Ok(ExprKind::Template {
        path: Name {
            at: path.value.at,
            text,
        },
        component: Box::new(component.value),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Statement {
        statement(text, 0).unwrap()
    }

    fn fails(text: &str) -> (u64, String) {
        let err = statement(text, 100).unwrap_err();
        assert_eq!(err.kind(), ExpressErrorKind::Parse);
        (err.offset().unwrap_or(0), err.message().to_owned())
    }

    fn value(text: &str) -> ExprKind {
        match parse(&format!("x = {text}")) {
            Statement::Definition { value, .. } => value.kind,
            Statement::Component { call, .. } => ExprKind::Call(call),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn statements_are_classified_by_shape() {
        assert!(matches!(
            parse("root = Text(\"Hi\")"),
            Statement::Component { .. }
        ));
        assert!(matches!(
            parse("ctx = {a: 1}"),
            Statement::Definition { .. }
        ));
        assert!(matches!(
            parse("go = Event(\"go\")"),
            Statement::Definition { .. }
        ));
        assert!(matches!(
            parse("rule = ?required"),
            Statement::Definition { .. }
        ));
        assert!(matches!(parse("$/a/b = [1]"), Statement::Data { .. }));
        assert!(matches!(parse("surface(\"s\")"), Statement::Surface(_)));
        assert!(matches!(
            parse("deleteSurface(\"s\")"),
            Statement::DeleteSurface(_)
        ));
        assert!(matches!(parse("openUrl(\"u\")"), Statement::Call(_)));
    }

    #[test]
    fn values_of_every_kind() {
        assert_eq!(
            value("\"a\\n\\t\\\"\\\\\\q\""),
            ExprKind::String("a\n\t\"\\\\q".to_owned())
        );
        assert_eq!(
            value("r\"C:\\temp\""),
            ExprKind::String("C:\\temp".to_owned())
        );
        assert_eq!(
            value("\"\"\"two\n\"lines\\\"\"\"\""),
            ExprKind::String("two\n\"lines\"".to_owned())
        );
        assert_eq!(
            value("r\"\"\"raw \\\" \"\"\""),
            ExprKind::String("raw \\\" ".to_owned())
        );
        assert_eq!(value("-12"), ExprKind::Number(Number::from(-12)));
        assert_eq!(
            value("0.5"),
            ExprKind::Number(Number::from_f64(0.5).unwrap())
        );
        assert_eq!(value("true"), ExprKind::Bool(true));
        assert_eq!(value("null"), ExprKind::Null);
        assert_eq!(value("$/a/b"), ExprKind::Path("/a/b".to_owned()));
        assert_eq!(value("$"), ExprKind::Path(String::new()));
        assert_eq!(value("other"), ExprKind::Reference("other".to_owned()));
        assert_eq!(value("ünïcode"), ExprKind::Reference("ünïcode".to_owned()));
        let ExprKind::Map(entries) = value("{a: 1, \"b c\": [], /* c */ }") else {
            panic!()
        };
        let keys: Vec<_> = entries.iter().map(|(k, _)| k.text.as_str()).collect();
        assert_eq!(keys, ["a", "b c"]);
        let ExprKind::Check { name, args } = value("?regex(r\"^x$\", \"msg\",)") else {
            panic!()
        };
        assert_eq!(
            (name.text.as_str(), args.map(|a| a.len())),
            ("regex", Some(2))
        );
        let ExprKind::Template { path, component } = value("_template($/items, row)") else {
            panic!()
        };
        assert_eq!(path.text, "/items");
        assert_eq!(component.kind, ExprKind::Reference("row".to_owned()));
    }

    #[test]
    fn calls_keep_positional_and_keyword_arguments() {
        let Statement::Component { id, call } = parse("t = Text(\"Hi\", variant = \"h1\",)") else {
            panic!()
        };
        assert_eq!((id.text.as_str(), call.callee.text.as_str()), ("t", "Text"));
        assert_eq!(call.args.len(), 2);
        assert_eq!(call.arg(5, "variant").map(|e| e.at), Some(25));
        assert_eq!(call.positional().count(), 1);
    }

    #[test]
    fn errors_name_the_rule_and_the_byte() {
        assert_eq!(
            fails("root = Text(\"Hello\""),
            (
                119,
                "expected ',' or ')' to close the call of Text, found the end of the statement"
                    .to_owned()
            )
        );
        assert_eq!(
            fails("root = TextField(,)").1,
            "expected a value before ',' in the arguments of TextField"
        );
        assert_eq!(fails("root = @Text").0, 107);
        assert_eq!(
            fails("root = Column(_template($/items))").1,
            "expected _template($/path, component): a path and a component"
        );
        assert_eq!(fails("x = \"open").1, "expected \" to close the string");
        assert_eq!(fails("x = 1.").1, "expected a digit after '.'");
        assert!(matches!(parse("root"), Statement::Expression(_)));
        assert_eq!(fails("x = [1 2]").0, 107);
        assert_eq!(
            fails("x = {a 1}").1,
            "expected ':' after the key 'a', found '1'"
        );
        assert!(
            fails(&format!("x = {}", "[".repeat(100)))
                .1
                .contains("nest deeper")
        );
    }
}
