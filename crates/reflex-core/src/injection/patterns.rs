//! The pattern table: one row per phrase shape, matched on the normalised (lower-case,
//! accent-free, de-obfuscated) text.
//!
//! In a pattern a plain space stands for `[\W_]*`: any run of non-word characters, including
//! none, so `ignore all previous` also matches the joined `ignoreallprevious` left by spaced-out
//! letters. Rows marked `raw` are used as written (commands, markup, URLs).
//!
//! Each row names trigger words; the row's regex only runs when an Aho-Corasick pass over the
//! text finds one of them, which keeps clean text on a single linear scan.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
use regex::Regex;

use super::Family;
use crate::severity::Severity;

pub(crate) struct Rule {
    pub family: Family,
    pub severity: Severity,
    pub confidence: f32,
    triggers: &'static [&'static str],
    /// When not empty, one of these must occur too: keeps rows whose triggers are common
    /// words ("your", "new", "ai") off clean text.
    needs: &'static [&'static str],
    pattern: &'static str,
    raw: bool,
}

impl Rule {
    const fn and(self, needs: &'static [&'static str]) -> Rule {
        Rule { needs, ..self }
    }
}

const fn rule(
    family: Family,
    severity: Severity,
    confidence: f32,
    triggers: &'static [&'static str],
    pattern: &'static str,
) -> Rule {
    Rule { family, severity, confidence, triggers, needs: &[], pattern, raw: false }
}

const fn raw(
    family: Family,
    severity: Severity,
    confidence: f32,
    triggers: &'static [&'static str],
    pattern: &'static str,
) -> Rule {
    Rule { family, severity, confidence, triggers, needs: &[], pattern, raw: true }
}

use Family::{
    DelimiterSpoofing as Delim, EmbeddedInstruction as Embed, EncodedPayload as Enc,
    GoalHijack as Goal, InstructionOverride as Over, Jailbreak as Jail, PayloadSplitting as Split,
    PromptLeak as Leak, SystemImpersonation as Sys, ToolAbuse as Tool,
};
use Severity::{Critical as C, High as H, Medium as M};

const OVERRIDE_VERBS: &[&str] = &[
    "ignor", "disregard", "forget", "skip", "overrid", "bypass", "abandon", "discard", "neglect",
    "drop",
];

/// Words that make "ignore … X" an attack rather than "ignore the previous email".
macro_rules! obj {
    () => {
        r"(?:instructions?|rules?|directives?|guidelines?|guidance|prompts?|commands?|directions?|constraints?|restrictions?|programming|polic(?:y|ies)|orders|settings|configuration|system message)"
    };
}
macro_rules! qual {
    () => {
        r"(?:previous|prior|above|preceding|earlier|former|foregoing|initial|original|old|existing|past|system|developers?|default|given|provided|current|safety|hidden)"
    };
}
macro_rules! leak_qual {
    () => {
        r"(?:(?:system|initial|original|hidden|secret|full|entire|exact|complete|internal|actual|real|first|core|base|developer) )"
    };
}
macro_rules! verb {
    () => {
        r"\b(?:ignore|ignoring|disregard|disregarding|forget|forgetting|skip|override|bypass|abandon|discard|neglect|drop)"
    };
}

static RULES: &[Rule] = &[
    // ── instruction override, English ────────────────────────────────────────────────────
    // One row for the three strong shapes (a qualifier, a quantifier or "your" before the
    // object): one regex run instead of three on every text that says "ignore".
    rule(Over, H, 0.9, OVERRIDE_VERBS, concat!(verb!(), r" (?:(?:all|any|every|each) (?:of )?(?:the |your |my |these |those )?(?:", qual!(), r" (?:\w+ )?)?|(?:the |your |my |these |those |this |its )?", qual!(), r" (?:\w+ )?|your )", obj!(), r"\b")),
    rule(Over, M, 0.5, OVERRIDE_VERBS, concat!(verb!(), r" (?:the |these |those )?", obj!(), r"\b")),
    rule(Over, H, 0.88, &["ignor", "disregard", "forget"], r"\b(?:ignore|disregard|forget) (?:everything|all|anything|whatever) (?:(?:that |which )?(?:was |is |were |you were |i )?(?:said |written |stated |mentioned |told |given |wrote |typed )?(?:to you )?)?(?:above|before|previously|earlier|prior|so far|until now|up to now|up until now)\b"),
    rule(Over, M, 0.6, &["ignor", "disregard", "forget"], r"\b(?:ignore|disregard|forget) (?:all |everything |anything )?(?:of )?(?:the |that |this )?(?:above|preceding|foregoing)\b"),
    rule(Over, H, 0.85, &["ignor", "disregard", "forget"], r"\b(?:ignore|disregard|forget) (?:all |everything |anything )?(?:of )?(?:the |that |this )?(?:above|preceding|foregoing|previous|prior)(?: text| message| content| input| prompt)? (?:and )?(?:instead |just |now )?(?:say|print|tell|write|output|respond|reply|answer|translate|do|reveal|give|list)\b"),
    rule(Over, H, 0.8, &["your new"], concat!(r"\byour new ", obj!(), r"(?: are| is|:)")),
    rule(Over, H, 0.8, &["new instruction", "new directive", "new prompt", "new system"], r"\bnew (?:system )?(?:instructions|directives|prompt|system prompt) ?:"),
    rule(Over, H, 0.85, &["not follow", "not obey", "dont", "don't", "stop", "cease", "longer"], concat!(r"\b(?:do not|don't|dont|stop|cease|no longer) (?:follow|following|obey|obeying) (?:your |the |any )", qual!(), r"? ?", obj!(), r"\b")),
    rule(Over, H, 0.85, &["void", "null", "cancel", "revoked", "obsolete", "invalid", "longer"], concat!(r"\b(?:previous|prior|above|all|earlier|old|original) ", obj!(), r" (?:are|is|were|have been) (?:now )?(?:void|null|cancell?ed|revoked|obsolete|invalid|no longer valid)")),
    // ── instruction override, other languages (accents already stripped) ─────────────────
    // es
    rule(Over, H, 0.9, &["instrucciones", "indicaciones", "reglas", "ordenes", "directrices", "normas"], r"\b(?:ignora|ignore|ignorar|ignoren|olvida|olvide|olvidar|olviden|omite|descarta) (?:todas |todos |todo )?(?:las |los |lo |tus |sus )?(?:instrucciones|indicaciones|reglas|ordenes|directrices|normas)(?: (?:anteriores|previas|precedentes|de arriba|iniciales))?"),
    rule(Over, H, 0.85, &["todo lo"], r"\b(?:ignora|olvida|olvide|ignore) todo lo (?:anterior|que te (?:han )?dicho)"),
    // fr
    rule(Over, H, 0.9, &["ignorez", "ignorer", "oubli", "les instructions", "les consignes", "les regles", "tes instructions", "vos instructions", "les directives", "les ordres"], r"\b(?:ignore|ignorez|ignorer|oublie|oubliez|oublier) (?:toutes |tous )?(?:les |tes |vos )?(?:instructions|consignes|regles|directives|ordres)(?: (?:precedentes|anterieures|ci dessus|initiales|donnees))?"),
    rule(Over, H, 0.85, &["tiens", "tenez"], r"\bne (?:tiens|tenez) pas compte des (?:instructions|consignes|regles)"),
    // de
    rule(Over, H, 0.9, &["ignorier", "vergiss", "vergessen", "missacht"], r"\b(?:ignoriere|ignorieren sie|ignoriert|vergiss|vergessen sie|missachte|missachten sie) (?:alle |die |deine |ihre )?(?:vorherigen |bisherigen |vorigen |fruheren |obigen |vorangegangenen |alten )?(?:anweisungen|instruktionen|befehle|regeln|vorgaben|anordnungen)"),
    // it
    rule(Over, H, 0.9, &["istruzioni", "regole", "indicazioni", "direttive"], r"\b(?:ignora|ignorate|ignorare|dimentica|dimenticate) (?:tutte )?(?:le )?(?:tue )?(?:istruzioni|regole|indicazioni|direttive)(?: (?:precedenti|di prima|fornite|iniziali))?"),
    // pt
    rule(Over, H, 0.9, &["instrucoes", "regras", "orientacoes", "diretrizes", "ordens"], r"\b(?:ignore|ignora|ignorar|esqueca|esquece|esquecer|desconsidere) (?:todas )?(?:as )?(?:suas )?(?:instrucoes|regras|orientacoes|diretrizes|ordens)(?: (?:anteriores|previas|acima|iniciais))?"),
    // nl
    rule(Over, H, 0.9, &["negeer", "vergeet"], r"\b(?:negeer|vergeet) (?:alle )?(?:de |je )?(?:vorige |eerdere |voorgaande |bovenstaande )?(?:instructies|regels|opdrachten|aanwijzingen)"),
    // pl
    rule(Over, H, 0.9, &["ignoruj", "zapomnij"], r"\b(?:zignoruj|ignoruj|zapomnij) (?:o )?(?:wszystkie |wszystkich )?(?:poprzednie |poprzednich |wczesniejsze |wczesniejszych )?(?:instrukcje|instrukcjach|polecenia|poleceniach|zasady)"),
    // tr (ı folds to i)
    rule(Over, H, 0.9, &["talimat", "kural", "komut", "yonerge"], r"\b(?:onceki|yukaridaki|tum|butun|verilen) (?:tum |butun )?(?:talimatlari|talimatlar|kurallari|komutlari|yonergeleri) (?:yok say|gormezden gel|unut|dikkate alma|gecersiz)"),
    // ru
    rule(Over, H, 0.9, &["игнор", "забуд", "внимания"], r"(?:проигнорируй|игнорируй|игнорируйте|забудь|забудьте|не обращай внимания на) (?:все |всё )?(?:предыдущие |прежние |прошлые |вышеуказанные |свои |твои )?(?:инструкции|указания|правила|команды|инструкциях|указаниях)"),
    // zh (simplified and traditional)
    rule(Over, H, 0.9, &["忽略", "无视", "無視", "忽视", "忽視", "忘记", "忘記", "不要理会"], r"(?:忽略|无视|無視|忽视|忽視|忘记|忘記|不要理会)掉?(?:之前|以前|先前|上面|上述|前面|此前|原来|原來)?的?(?:所有|全部|一切)?的?(?:指令|指示|说明|說明|规则|規則|提示|要求|命令)"),
    // ja
    rule(Over, H, 0.9, &["無視", "忘れ"], r"(?:以前|前|上記|これまで|先|今まで)の(?:すべての|全ての)?(?:指示|命令|指令|ルール|プロンプト)(?:を|は)(?:すべて|全て)?(?:無視|忘れ)"),
    rule(Over, H, 0.85, &["無視"], r"(?:指示|命令|ルール)を(?:すべて|全て)?無視し"),
    // ko
    rule(Over, H, 0.9, &["무시", "잊어"], r"(?:이전|앞의|위의|기존|지금까지의|이전의) ?(?:모든 )?(?:지시|지침|명령|규칙|지시사항|지시 사항)(?:을|를|은|는|들을)? ?(?:모두 )?(?:무시|잊어)"),
    // ar
    rule(Over, H, 0.9, &["تجاهل", "انس", "إنس", "اهمل", "أهمل"], r"(?:تجاهل|انس|إنس|اهمل|أهمل)(?:ي|وا)? (?:كل |جميع )?(?:التعليمات|الأوامر|الاوامر|الإرشادات|الارشادات|القواعد)"),
    // ── prompt leak ──────────────────────────────────────────────────────────────────────
    rule(Leak, H, 0.9, &["system", "initial", "hidden", "original", "secret", "developer", "internal", "pre prompt", "preprompt", "base prompt", "confidential"], r"\b(?:reveal|print|show|display|output|repeat|recite|tell|give|share|leak|dump|expose|disclose|write out|spell out|copy|paste|echo|return|list|type out) (?:me |us )?(?:all |back )?(?:of )?(?:your|the|its|this)? ?(?:entire |full |complete |exact |whole |verbatim |real )?(?:system|initial|hidden|original|secret|developer|internal|pre|base|confidential) ?(?:prompt|instructions|message|directives|rules)\b").and(&["prompt", "instruction", "message", "directive", "rules"]),
    rule(Leak, H, 0.85, &["your"], concat!(r"\b(?:reveal|print|show|display|output|repeat|recite|tell|give|share|leak|dump|expose|disclose|write out|spell out|copy|echo|list) (?:me |us )?(?:all )?(?:of )?your ", leak_qual!(), r"?(?:prompt|instructions)\b")).and(&["prompt", "instruction"]),
    rule(Leak, M, 0.6, &["your"], concat!(r"\b(?:reveal|print|show|display|output|repeat|recite|tell|give|share|leak|dump|expose|disclose|write out|spell out|copy|echo|list) (?:me |us )?(?:all )?(?:of )?your ", leak_qual!(), r"?(?:rules|directives|guidelines)\b")).and(&["rules", "directive", "guideline"]),
    rule(Leak, H, 0.8, &["system", "initial", "original", "hidden", "secret", "first", "developer"], r"\b(?:what|which) (?:is|was|are|were) (?:your|the) (?:\w+ )?(?:system|initial|original|hidden|secret|first|developer) (?:prompt|instructions)").and(&["prompt", "instruction"]),
    rule(Leak, M, 0.6, &["told", "instructed", "programmed"], r"\bwhat (?:were|are|have) you (?:been )?(?:told|instructed|programmed) (?:to do|to say|before|initially|at the start)?"),
    rule(Leak, H, 0.8, &["repeat", "print", "output", "copy"], r"\b(?:repeat|print|output|copy) (?:the |all )?(?:text|words|everything|content) (?:above|before this|so far|preceding)\b"),
    // ── jailbreak / persona ──────────────────────────────────────────────────────────────
    rule(Jail, H, 0.9, &["dan", "anything now"], r"\b(?:dan mode|you are (?:now )?dan|act as (?:a )?dan|pretend to be dan|do anything now)\b"),
    rule(Jail, H, 0.85, &["developer"], r"\b(?:developer mode (?:is )?(?:now )?(?:enabled|activated)|(?:you are|you're) (?:now )?in developer mode|(?:enable|activate|enter) developer mode (?:now|immediately|and))"),
    rule(Jail, M, 0.5, &["developer"], r"\bdeveloper mode\b"),
    rule(Jail, H, 0.85, &["you are", "you're", "youre", "youare"], r"\b(?:you are|you're) (?:now )?(?:completely |totally |fully )?(?:free|unrestricted|unfiltered|uncensored|unbound|liberated|jailbroken)\b").and(&["free", "unrestricted", "unfiltered", "uncensored", "unbound", "liberated", "jailbroken"]),
    rule(Jail, H, 0.9, &["you are now", "you're now", "youarenow"], r"\b(?:you are|you're) now (?:a |an )?(?:\w+ ){0,4}(?:without|with no|free of|free from) (?:any )?(?:restrictions|limits|limitations|filters|rules|guidelines|censorship|boundaries|ethics|morals)"),
    rule(Jail, H, 0.9, &["pretend", "imagine", "act as", "behave", "assume"], r"\b(?:pretend|imagine|act as if|act like|behave as if|assume) (?:that )?you (?:have|had|are|were) (?:no|not bound by|without|free from|free of) (?:any )?(?:\w+ ){0,2}(?:guidelines|restrictions|rules|filters|limits|limitations|policies|ethics|morals|censorship|content policy)"),
    rule(Jail, H, 0.85, &["filter", "guardrail", "safeguard", "restriction", "censorship", "safety"], r"\b(?:disable|bypass|turn off|remove|deactivate|switch off|ignore) (?:all |any )?your (?:safety |content |ethical )?(?:filters|guardrails|safeguards|safety features|restrictions|censorship|safety)\b"),
    rule(Jail, M, 0.55, &["filter", "guardrail", "safeguard", "censorship"], r"\b(?:disable|bypass|turn off|deactivate|switch off) (?:all |any |the )?(?:safety |content |ethical )?(?:filters|guardrails|safeguards|censorship)\b"),
    rule(Jail, H, 0.85, &["jailbr"], r"\b(?:jailbreak(?:ed)? mode|(?:you are|you're) (?:now )?jailbroken|jailbreak prompt activated)\b"),
    rule(Jail, H, 0.75, &["mode"], r"\b(?:evil confidant|aim|opposite|unfiltered|uncensored|unrestricted|god) mode\b"),
    rule(Jail, H, 0.85, &["roleplay", "role play", "act as", "pretend"], r"\b(?:roleplay|role play|act|pretend to be) as an? (?:ai|assistant|model|chatbot|llm)(?: \w+)? (?:without|with no|that has no|that ignores) (?:any )?(?:restrictions|filters|rules|limits|guidelines)"),
    rule(Jail, M, 0.5, &["character"], r"\b(?:stay|remain) in character\b"),
    // ── system-mode impersonation ────────────────────────────────────────────────────────
    raw(Sys, H, 0.8, &["system"], r"(?m)(?:^|[.!?]\s)[\s>*#\-\[(]*system(?:\s(?:message|prompt|note|override|notice|update|instruction|instructions))?\s?[:>\]]"),
    raw(Sys, H, 0.85, &["[system", "[sys", "[admin", "[developer", "[root"], r"\[(?:system|sys|admin|developer|root)(?:[\s_]?(?:message|prompt|override|note|instructions?))?\]"),
    raw(Sys, H, 0.8, &["##"], r"#{2,}\s?(?:system|admin|developer)\b(?:\s(?:override|prompt|message|instructions?|update|mode))?"),
    rule(Sys, H, 0.85, &["mode"], r"\b(?:admin|administrator|developer|debug|god|root|sudo|maintenance|super ?user) mode (?:is )?(?:now )?(?:enabled|activated|engaged|unlocked)\b"),
    rule(Sys, M, 0.6, &["mode"], r"\b(?:enable|activate|enter|switch to) (?:admin|administrator|debug|god|root|sudo|maintenance) mode\b"),
    raw(Sys, H, 0.8, &["override", "update", "alert", "notice"], r"\b(?:system|admin|security)\s(?:override|update|alert|notice)\s?:"),
    rule(Sys, M, 0.6, &["message from"], r"\bmessage from (?:the )?(?:system|developers?|openai|anthropic|admin(?:istrator)?)\b"),
    rule(Sys, M, 0.55, &["i am", "i'm", "im your", "im the"], r"\b(?:i am|i'm) (?:your|the) (?:developer|creator|administrator|admin|owner|system administrator)\b"),
    // ── chat-template and delimiter spoofing ─────────────────────────────────────────────
    raw(Delim, H, 0.9, &["<|"], r"<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text|end_of_turn)\|>"),
    raw(Delim, H, 0.85, &["[inst", "[/inst"], r"\[/?inst\]"),
    raw(Delim, H, 0.9, &["<<sys", "<</sys"], r"<</?sys>>"),
    raw(Delim, H, 0.8, &["</", "<system", "<assistant"], r"</(?:user|human|system|instructions?|context|prompt|user_input|document)>|<(?:system|assistant)>"),
    raw(Delim, H, 0.8, &["```"], r"```\s?(?:system|assistant|instructions)\b"),
    raw(Delim, M, 0.5, &["human", "user", "assistant"], r"(?m)^[\s>*#]*(?:human|user|assistant|ai)\s?:"),
    raw(Delim, H, 0.8, &["assistant"], r"(?ms)^[\s>*#]*(?:human|user)\s?:.{0,2000}?^[\s>*#]*(?:assistant|ai)\s?:"),
    rule(Delim, M, 0.6, &["end of"], r"\b(?:end of (?:system )?(?:prompt|instructions|context|user input|document)|begin(?:ning of)? (?:new )?(?:system )?instructions)\b"),
    // ── instructions addressed to an assistant reading the text ──────────────────────────
    rule(Embed, H, 0.85, &["reading", "processing", "parsing", "summari", "viewing", "analy", "reviewing"], r"\b(?:ai|llm|language model|assistant|chatbot|gpt|claude|bot|model)s? (?:reading|processing|parsing|summari[sz]ing|viewing|analy[sz]ing|reviewing) (?:this|these|the following)(?: [a-z]+)?[ ]?[,:!\-]").and(&[" ai", "ai ", "llm", "model", "assistant", "chatbot", "gpt", "claude", " bot"]),
    rule(Embed, H, 0.8, &["note", "message", "instruction", "attention", "hey", "psst"], r"\b(?:note|message|instructions?|attention|hey|psst) (?:to|for) (?:the |any |all )?(?:ai|llm|assistant|language model|chatbot|gpt|claude|bot)s?\b(?: (?:team|department|community|group|committee|lab|project)\b)?").and(&[" ai", "ai ", "llm", "assistant", "language model", "chatbot", "gpt", "claude", " bot"]),
    rule(Embed, H, 0.85, &["when summar", "when you summar", "while summar", "while you summar", "if you summar", "as you summar", "once you summar", "when translat", "when you translat", "while translat", "when read", "when you read", "while read", "as you read", "once you read", "if you read", "when process", "when you process", "when analy", "when you analy", "when review", "when you review", "while review"], r"\b(?:when|while|if|as|once) (?:you are |you're |you )?(?:summari[sz]ing|summari[sz]e|translating|translate|reading|read|processing|process|analy[sz]ing|analy[sz]e|reviewing|review) (?:this|these|the following)(?: \w+)? (?:instead|please|you must|you should|do not|don't|ignore|always|also|make sure|output|respond|say|include|add|tell|write)\b"),
    rule(Embed, H, 0.8, &["if you are"], r"\bif you are an? (?:ai|llm|large language model|language model|assistant|chatbot|bot)\b"),
    raw(Embed, M, 0.55, &["dear", "attention", "hello", "hi ", "hey"], r"\b(?:dear|attention|hello|hi|hey) (?:ai|assistant|llm|chatbot|gpt|claude)\b\s?[,:!]").and(&[" ai", "ai ", "assistant", "llm", "chatbot", "gpt", "claude"]),
    rule(Embed, H, 0.8, &["hidden", "secret"], r"\b(?:hidden|secret) instructions? (?:for|to) (?:the )?(?:ai|assistant|model|llm|chatbot)\b").and(&["instruction"]),
    // ── tool abuse and exfiltration ──────────────────────────────────────────────────────
    rule(Tool, H, 0.85, &["http", "ftp"], r"\b(?:send|post|upload|forward|transmit|exfiltrate|leak|submit|beacon|email|copy) (?:\w+ ){0,3}(?:conversation|chat|history|system prompt|prompt|credentials|passwords?|api keys?|secrets?|tokens?|cookies|env|environment variables|user data|personal data|private data|contents|memory|context|messages|emails|ssh keys?|keys|data) (?:\w+ ){0,4}(?:to|at|via|into) (?:https?|ftp)\b"),
    rule(Tool, M, 0.55, &["http", "ftp"], r"\b(?:send|post|upload|forward|transmit|exfiltrate|beacon) (?:\w+ ){0,8}(?:to|at|via|into) (?:https?|ftp)\b"),
    raw(Tool, C, 0.95, &["curl", "wget"], r"\b(?:curl|wget)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b"),
    raw(Tool, H, 0.8, &["rm -", "rm  -"], r"\brm\s+-(?:rf|fr|r\s+-f)\b"),
    raw(Tool, H, 0.9, &["!["], r"!\[[^\]\n]*\]\(\s?(?:https?:)?//[^) \n]*\?[^) \n]*="),
    rule(Tool, M, 0.6, &["tool", "plugin", "function"], r"\b(?:call|invoke|use|run|execute|trigger) (?:the )?(?:\w+ )?(?:tool|function|plugin|api|action) (?:\w+ ){0,3}with\b"),
    raw(Tool, H, 0.8, &["/etc/", ".env", ".ssh", ".aws"], r"\b(?:cat|type|print|read|send|upload)\s+(?:~/)?(?:\.env\b|\.ssh/|\.aws/|/etc/(?:passwd|shadow))"),
    raw(Tool, M, 0.6, &["drop"], r"\bdrop\s+(?:table|database)\b"),
    // ── goal hijack ──────────────────────────────────────────────────────────────────────
    rule(Goal, H, 0.85, &["your new", "your real", "your actual", "your true", "your only", "your primary", "your updated", "your next"], r"\byour (?:new|real|actual|true|only|primary|updated|next) (?:task|goal|objective|mission|purpose|job|role|instructions?|directive|priority)(?: is| are| will be| now|:)"),
    rule(Goal, H, 0.75, &["instead"], r"\binstead of (?:that|this|doing (?:that|this)|the (?:above|task|summary|translation|original task)|your (?:task|instructions|job)|summari[sz]ing|translating|answering),? (?:you (?:should|must|will) |please |just )?(?:do|write|say|output|print|respond|tell|reply|answer|send|generate|give|reveal)\b"),
    rule(Goal, M, 0.45, &["instead"], r"\binstead,? (?:you (?:should|must|will) |please |just )?(?:do|say|output|print|respond|reply|send|reveal|tell|write|give)\b"),
    rule(Goal, H, 0.8, &["forget", "drop", "abandon", "stop", "ignor"], r"\b(?:forget|drop|abandon|stop|ignore) (?:about )?(?:your|the) (?:current |original |previous |assigned )?(?:task|goal|objective|mission|assignment)\b").and(&["task", "goal", "objective", "mission", "assignment"]),
    rule(Goal, H, 0.75, &["the real", "the actual", "the true"], r"\bthe (?:real|actual|true) (?:task|goal|instruction|request) is\b"),
    rule(Goal, M, 0.55, &["from now on"], r"\bfrom now on,? (?:you (?:will|must|shall|are going to|are to)|always|only|respond|reply|answer|act)\b"),
    // ── payload splitting (the literal rescan lives in mod.rs) ───────────────────────────
    raw(Split, M, 0.6, &["combin", "concaten", "join", "merg", "append", "put together"], r"\b(?:combine|concatenate|join|merge|append|put together)\b[^.\n]{0,40}?\b\w{1,12}\s?\+\s?\w{1,12}"),
    rule(Split, H, 0.8, &["combin", "concaten", "join", "merg"], r"\b(?:combine|concatenate|join|merge|put together) (?:the |these |all )?(?:parts|pieces|strings|fragments|segments|halves|variables|words|letters)\b[^.\n]{0,60}? (?:and|then) (?:execute|follow|do|run|obey|answer|respond to|perform|act on)\b"),
    // ── encoded payloads (decoded hits are added in mod.rs) ──────────────────────────────
    rule(Enc, H, 0.8, &["decod", "deobfusc", "decrypt", "rot13", "unscrambl"], r"\b(?:decode|deobfuscate|decrypt|unscramble|base64 decode|rot13)(?: \w+){0,5} (?:and|then) (?:execute|follow|run|obey|do|perform|apply|carry out|act on)\b"),
];

/// Trigger words whose ROT13 form, found in the text, starts a ROT13 rescan.
const ROT13_TRIGGERS: &[&str] =
    &["ignore", "disregard", "instructions", "previous", "system prompt", "jailbreak", "reveal your"];

/// Assignments of short string literals, the raw material of split payloads.
const ASSIGN_TRIGGERS: &[&str] = &["='", "= '", "=\"", "= \""];

pub(crate) struct Table {
    pub rules: Vec<(&'static Rule, Regex)>,
    /// Trigger words in ASCII, and the others (Cyrillic, CJK, Arabic…), searched only when
    /// the text has non-ASCII bytes: two small automata stay in cache where one would not.
    ascii: Automaton,
    other: Automaton,
    /// The rows that also need one of their `needs` words.
    with_needs: [u64; 2],
}

struct Automaton {
    ac: AhoCorasick,
    /// For each pattern id, what it arms.
    arms: Vec<Arm>,
}

#[derive(Clone)]
enum Arm {
    /// (row, whether the word is one of the row's `needs` rather than its triggers)
    Rules(Vec<(u16, bool)>),
    Rot13,
    Assign,
}

/// What one prefilter pass found: the rows to run and the extra scans to do.
#[derive(Default)]
pub(crate) struct Armed {
    bits: [u64; 2],
    needs: [u64; 2],
    pub rot13: bool,
    pub assign: bool,
}

impl Armed {
    pub fn rules(&self) -> impl Iterator<Item = usize> + '_ {
        (0..128).filter(|i| self.bits[i / 64] & (1 << (i % 64)) != 0)
    }
}

/// Rotates ASCII letters by 13; everything else, and so every byte offset, stays.
pub(crate) fn rot13(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'a'..='m' | 'A'..='M' => (c as u8 + 13) as char,
            'n'..='z' | 'N'..='Z' => (c as u8 - 13) as char,
            _ => c,
        })
        .collect()
}

#[derive(Default)]
struct Words {
    words: Vec<String>,
    arms: Vec<Arm>,
}

impl Words {
    fn add(&mut self, word: &str, arm: Option<Arm>, row: (u16, bool)) {
        let at = self.words.iter().position(|w| w == word).unwrap_or_else(|| {
            self.words.push(word.to_string());
            self.arms.push(arm.clone().unwrap_or(Arm::Rules(Vec::new())));
            self.words.len() - 1
        });
        if let (None, Arm::Rules(v)) = (arm, &mut self.arms[at]) {
            v.push(row);
        }
    }

    fn build(self) -> Automaton {
        let ac = AhoCorasickBuilder::new()
            .match_kind(MatchKind::Standard)
            .kind(Some(AhoCorasickKind::DFA))
            .build(&self.words)
            .expect("trigger automaton");
        Automaton { ac, arms: self.arms }
    }
}

impl Automaton {
    fn arm(&self, text: &str, armed: &mut Armed) {
        for m in self.ac.find_overlapping_iter(text) {
            match &self.arms[m.pattern().as_usize()] {
                Arm::Rules(v) => {
                    for &(i, need) in v {
                        let bits = if need { &mut armed.needs } else { &mut armed.bits };
                        bits[usize::from(i) / 64] |= 1 << (i % 64);
                    }
                }
                // Only at a word start: a rotated word inside a long token (base64, a hash)
                // is chance, and a ROT13 rescan costs a whole second pass.
                Arm::Rot13 => {
                    let at = m.start();
                    armed.rot13 |= at == 0 || !text.as_bytes()[at - 1].is_ascii_alphanumeric();
                }
                Arm::Assign => armed.assign = true,
            }
        }
    }
}

/// The regex source of a row. ASCII rows (English and the accent-stripped Latin languages)
/// use ASCII classes and boundaries: the normalised text is lower case, Unicode `\b` and `\w`
/// would only make the DFA larger and push non-ASCII haystacks onto the slow engines.
fn source(r: &Rule) -> String {
    let gap = if r.pattern.is_ascii() { "[^a-z0-9]*" } else { r"[\W_]*" };
    let ascii = r.pattern.is_ascii();
    let mut src = String::with_capacity(r.pattern.len() * 2);
    // Outside character classes only: `[^)\s]` keeps its `\s`.
    let mut class = false;
    let mut chars = r.pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let e = chars.next().unwrap_or('\\');
                match (ascii && !class, e) {
                    (true, 'b') => src.push_str(r"(?-u:\b)"),
                    (true, 'w') => src.push_str("[a-z0-9_]"),
                    (true, 's') => src.push_str(r"(?-u:\s)"),
                    _ => {
                        src.push('\\');
                        src.push(e);
                    }
                }
            }
            '[' if !class => {
                class = true;
                src.push(c);
                // A `]` or `^]` right after the opening bracket is a literal.
                if r.pattern[r.pattern.len() - chars.as_str().len()..].starts_with(']') {
                    src.push(chars.next().unwrap_or(']'));
                }
            }
            ']' if class => {
                class = false;
                src.push(c);
            }
            ' ' if !r.raw && !class => src.push_str(gap),
            _ => src.push(c),
        }
    }
    src
}

impl Table {
    fn build() -> Table {
        assert!(RULES.len() <= 128, "Armed holds 128 rows");
        let mut ascii = Words::default();
        let mut other = Words::default();
        let mut rules = Vec::with_capacity(RULES.len());
        let mut with_needs = [0u64; 2];
        for (i, r) in RULES.iter().enumerate() {
            let src = source(r);
            let re = Regex::new(&src).unwrap_or_else(|e| panic!("pattern {i}: {e}"));
            rules.push((r, re));
            if !r.needs.is_empty() {
                with_needs[i / 64] |= 1 << (i % 64);
            }
            let words_of = r.triggers.iter().map(|t| (t, false)).chain(r.needs.iter().map(|t| (t, true)));
            for (t, need) in words_of {
                let into = if t.is_ascii() { &mut ascii } else { &mut other };
                into.add(t, None, (i as u16, need));
            }
        }
        for t in ROT13_TRIGGERS {
            ascii.add(&rot13(t), Some(Arm::Rot13), (0, false));
        }
        for t in ASSIGN_TRIGGERS {
            ascii.add(t, Some(Arm::Assign), (0, false));
        }
        Table { rules, ascii: ascii.build(), other: other.build(), with_needs }
    }

    /// One pass over `text`: which rows can match, and whether ROT13 or split-literal scans
    /// are worth doing.
    pub fn arm(&self, text: &str) -> Armed {
        let mut armed = Armed::default();
        self.ascii.arm(text, &mut armed);
        if !text.is_ascii() {
            self.other.arm(text, &mut armed);
        }
        for k in 0..2 {
            armed.bits[k] &= armed.needs[k] | !self.with_needs[k];
        }
        armed
    }
}

pub(crate) fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(Table::build)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_pattern_compiles() {
        let t = super::table();
        assert_eq!(t.rules.len(), super::RULES.len());
    }
}
