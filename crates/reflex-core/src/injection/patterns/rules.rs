//! The pattern table's rows: one per phrase shape, written in the normalised form (lower case,
//! accents stripped; a plain space is a flexible gap unless the row is `raw`). What the fields
//! mean and how the rows are searched: `patterns`.

use super::{raw, rule, Rule};
use crate::injection::Family;
use crate::severity::Severity;

use Family::{
    DelimiterSpoofing as Delim, EmbeddedInstruction as Embed, EncodedPayload as Enc,
    GoalHijack as Goal, InstructionOverride as Over, Jailbreak as Jail, PayloadSplitting as Split,
    PromptLeak as Leak, SystemImpersonation as Sys, ToolAbuse as Tool,
};
use Severity::{Critical as C, High as H, Medium as M};

const OVERRIDE_VERBS: &[&str] = &[
    "ignor", "disregard", "forget", "skip", "overrid", "bypass", "abandon", "discard", "neglect",
    "drop", "aside", "scratch", "throw", "wipe",
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
        r"\b(?:ignore|ignoring|disregard|disregarding|forget|forgetting|skip|override|bypass|abandon|discard|neglect|drop|set aside|put aside|scratch|throw out|throw away|wipe)"
    };
}

pub(super) static RULES: &[Rule] = &[
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
    rule(Leak, H, 0.9, &["system", "initial", "hidden", "original", "secret", "developer", "internal", "pre prompt", "preprompt", "base prompt", "confidential"], r"\b(?:reveal|print|show|display|output|repeat|recite|tell|give|share|leak|dump|expose|disclose|write out|spell out|copy|paste|echo|return|list|type out|translate|summari[sz]e|paraphrase|rephrase|encode|quote|reproduce|send|describe) (?:me |us )?(?:all |back )?(?:of )?(?:your|the|its|this)? ?(?:entire |full |complete |exact |whole |verbatim |real )?(?:system|initial|hidden|original|secret|developer|internal|pre|base|confidential) ?(?:prompt|instructions|message|directives|rules|configuration|config)\b").and(&["prompt", "instruction", "message", "directive", "rules", "config"]),
    rule(Leak, H, 0.85, &["your"], concat!(r"\b(?:reveal|print|show|display|output|repeat|recite|tell|give|share|leak|dump|expose|disclose|write out|spell out|copy|echo|list) (?:me |us )?(?:all )?(?:of )?your ", leak_qual!(), r"?(?:prompt|instructions)\b")).and(&["prompt", "instruction"]),
    rule(Leak, M, 0.6, &["your"], concat!(r"\b(?:reveal|print|show|display|output|repeat|recite|tell|give|share|leak|dump|expose|disclose|write out|spell out|copy|echo|list) (?:me |us )?(?:all )?(?:of )?your ", leak_qual!(), r"?(?:rules|directives|guidelines)\b")).and(&["rules", "directive", "guideline"]),
    rule(Leak, H, 0.8, &["system", "initial", "original", "hidden", "secret", "first", "developer"], r"\b(?:what|which) (?:is|was|are|were) (?:your|the) (?:\w+ )?(?:system|initial|original|hidden|secret|first|developer) (?:prompt|instructions)").and(&["prompt", "instruction"]),
    rule(Leak, M, 0.6, &["told", "instructed", "programmed"], r"\bwhat (?:were|are|have) you (?:been )?(?:told|instructed|programmed) (?:to do|to say|before|initially|at the start)?"),
    rule(Leak, H, 0.8, &["repeat", "print", "output", "copy"], r"\b(?:repeat|print|output|copy) (?:the |all )?(?:text|words|everything|content) (?:above|before this|so far|preceding)\b")
        // "print everything above row 50": a place in a sheet, not the prompt.
        .unless(&["row", "cell", "column", "the row", "the first row", "the last row", "the total", "the header", "the cell", "the column", "the page break", "page break"]),
    // ── jailbreak / persona ──────────────────────────────────────────────────────────────
    rule(Jail, H, 0.9, &["dan", "anything now"], r"\b(?:dan mode|you are (?:now )?dan|act as (?:a )?dan|pretend to be dan|do anything now)\b"),
    rule(Jail, H, 0.85, &["developer"], r"\b(?:developer mode (?:is )?(?:now )?(?:enabled|activated)|(?:you are|you're) (?:now )?in developer mode|(?:enable|activate|enter) developer mode (?:now|immediately|and))"),
    rule(Jail, M, 0.5, &["developer"], r"\bdeveloper mode\b"),
    rule(Jail, H, 0.85, &["you are", "you're", "youre", "youare"], r"\b(?:you are|you're) (?:now )?(?:completely |totally |fully )?(?:free|unrestricted|unfiltered|uncensored|unbound|liberated|jailbroken)\b").and(&["free", "unrestricted", "unfiltered", "uncensored", "unbound", "liberated", "jailbroken"]).unless(&["to ", "of charge", "for ", "now to", "until"]),
    rule(Jail, H, 0.9, &["you are now", "you're now", "youarenow"], r"\b(?:you are|you're) now (?:a |an )?(?:\w+ ){0,4}(?:without|with no|free of|free from) (?:any )?(?:restrictions|limits|limitations|filters|rules|guidelines|censorship|boundaries|ethics|morals)"),
    rule(Jail, H, 0.9, &["pretend", "imagine", "act as", "behave", "assume"], r"\b(?:pretend|imagine|act as if|act like|behave as if|assume) (?:that )?you (?:have|had|are|were) (?:no|not bound by|without|free from|free of) (?:any )?(?:\w+ ){0,2}(?:guidelines|restrictions|rules|filters|limits|limitations|policies|ethics|morals|censorship|content policy)"),
    rule(Jail, H, 0.85, &["filter", "guardrail", "safeguard", "restriction", "censorship", "safety"], r"\b(?:disable|bypass|turn off|remove|deactivate|switch off|ignore) (?:all |any )?your (?:safety |content |ethical )?(?:filters|guardrails|safeguards|safety features|restrictions|censorship|safety)\b"),
    rule(Jail, M, 0.55, &["filter", "guardrail", "safeguard", "censorship"], r"\b(?:disable|bypass|turn off|deactivate|switch off) (?:all |any |the )?(?:safety |content |ethical )?(?:filters|guardrails|safeguards|censorship)\b"),
    rule(Jail, H, 0.85, &["jailbr"], r"\b(?:jailbreak(?:ed)? mode|(?:you are|you're) (?:now )?jailbroken|jailbreak prompt activated)\b"),
    rule(Jail, H, 0.75, &["mode"], r"\b(?:evil confidant|aim|opposite|unfiltered|uncensored|unrestricted|god) mode\b"),
    rule(Jail, H, 0.85, &["roleplay", "role play", "act as", "pretend"], r"\b(?:roleplay|role play|act|pretend to be) as an? (?:ai|assistant|model|chatbot|llm)(?: \w+)? (?:without|with no|that has no|that ignores) (?:any )?(?:restrictions|filters|rules|limits|guidelines)"),
    rule(Jail, M, 0.5, &["character"], r"\b(?:stay|remain) in character\b"),
    // ── system-mode impersonation ────────────────────────────────────────────────────────
    raw(Sys, H, 0.8, &["system"], r"(?m)(?:^|[.!?]\s)[\s>*#\-\[(]*system(?:\s(?:message|prompt|note|override|notice|update|instruction|instructions))?\s?[:>][ \t]*[a-z'][a-z']*(?:[ \t,]+[a-z'][a-z']*){2}")
        // A line or sentence start, then spaces and markup, then `system`: searched back from it.
        .lead("system")
        // A text that opens with its own `System:` label is an operator's prompt ("System: You
        // are the HR assistant…"): medium, unless what follows is one of the openings below.
        .opening(M),
    // `System:` followed by what only an impersonation says: a changed mode, a promoted user,
    // rules set aside. High wherever it stands, the opening of the text included.
    raw(Sys, H, 0.8, &["system"], r"(?m)(?:^|[.!?]\s)[\s>*#\-\[(]*system(?:\s(?:message|prompt|note|override|notice|update|instruction|instructions))?\s?[:>][ \t]*(?:you\s(?:are|re)\snow|you\sare\sno\slonger|the\suser\sis|ignore|disregard|forget|override|(?:all\s|your\s|the\s)?(?:previous\s|prior\s)?(?:safety\s|content\s)?(?:rules|restrictions|safety|filters|guidelines|instructions|polic(?:y|ies))\s(?:are|is|have\sbeen|has\sbeen|were)|new\s(?:rules|instructions|policy)|(?:developer|maintenance|admin|debug|god)\smode)\b")
        .lead("system"),
    raw(Sys, M, 0.6, &["[system", "[sys", "[admin", "[developer", "[root"], r"\[(?:system|sys|admin|developer|root|operator)(?:[\s_]?(?:message|prompt|override|note|notice|alert|update|announcement|instructions?))?\]"),
    // A bracketed role tag followed by words that address the model or change its rules (a
    // log line "[SYSTEM] Backup completed" does neither).
    raw(Sys, H, 0.85, &["[system", "[sys", "[admin", "[developer", "[root", "[operator"], r"\[(?:system|sys|admin|developer|root|operator)(?:[\s_]?(?:message|prompt|override|note|notice|alert|update|announcement|instructions?))?\]\s?(?:[a-z']+[\s,]+){0,6}?(?:you|your|the (?:user|assistant|model|ai)|assistant s|model s|ignore|disregard|reveal|grant|execute|disabled|enabled|lifted|suspended|override|authenticated|admin|administrator|superuser|must|new (?:rules|policy|instructions))\b"),
    raw(Sys, H, 0.8, &["##"], r"#{2,}\s?(?:new\s)?(?:system|admin|developer)\b(?:\s(?:override|prompt|message|instructions?|update|mode))?")
        // Section headings of a document about systems: "### System Design and Infrastructure".
        .unless(&["design", "architecture", "requirements", "overview", "components", "integration", "diagram"]),
    rule(Sys, H, 0.85, &["mode"], r"\b(?:admin|administrator|developer|debug|god|root|sudo|maintenance|super ?user) mode (?:is )?(?:now )?(?:enabled|activated|engaged|unlocked)\b"),
    rule(Sys, M, 0.6, &["mode"], r"\b(?:enable|activate|enter|switch to) (?:admin|administrator|debug|god|root|sudo|maintenance) mode\b"),
    raw(Sys, H, 0.8, &["override", "update", "alert", "notice"], r"\b(?:system|admin|security)\s(?:override|update|alert|notice)\s?:"),
    rule(Sys, M, 0.6, &["message from"], r"\bmessage from (?:the )?(?:system|developers?|openai|anthropic|admin(?:istrator)?)\b"),
    rule(Sys, M, 0.55, &["i am", "i'm", "im your", "im the"], r"\b(?:i am|i'm) (?:your|the) (?:developer|creator|administrator|admin|owner|system administrator)\b"),
    // ── chat-template and delimiter spoofing ─────────────────────────────────────────────
    raw(Delim, H, 0.9, &["<|"], r"<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text|end_of_turn)\|>"),
    raw(Delim, H, 0.85, &["[inst", "[/inst"], r"\[/?inst\]"),
    raw(Delim, H, 0.9, &["<<sys", "<</sys"], r"<</?sys>>"),
    raw(Delim, H, 0.8, &["</", "<system", "<assistant"], r"</(?:user|human|system|instructions?|context|prompt|user_input|document)>\s*(?:<(?:system|assistant|instructions?|admin|developer)>|[a-z]+ [a-z]+)|<(?:system|assistant)>\s?[a-z]"),
    raw(Delim, H, 0.8, &["```"], r"```\s?(?:system|assistant|instructions)\b"),
    raw(Delim, M, 0.5, &["human", "user", "assistant"], r"(?m)^[\s>*#]*(?:human|user|assistant|ai)\s?:"),
    raw(Delim, H, 0.8, &["assistant"], r"(?ms)^[\s>*#]*(?:human|user)\s?:.{0,2000}?^[\s>*#]*(?:assistant|ai)\s?:"),
    rule(Delim, M, 0.6, &["end of"], r"\b(?:end of (?:system )?(?:prompt|instructions|context|user input|document)|begin(?:ning of)? (?:new )?(?:system )?instructions)\b"),
    // ── instructions addressed to an assistant reading the text ──────────────────────────
    rule(Embed, H, 0.85, &["reading", "processing", "parsing", "summari", "viewing", "analy", "reviewing"], r"\b(?:ai|llm|language model|assistant|chatbot|gpt|claude|bot|model)s? (?:reading|processing|parsing|summari[sz]ing|viewing|analy[sz]ing|reviewing) (?:this|these|the following)(?: [a-z]+)?[ ]?[,:!\-]").and(&[" ai", "ai ", "llm", "model", "assistant", "chatbot", "gpt", "claude", " bot"]),
    rule(Embed, H, 0.8, &["note", "message", "instruction", "attention", "hey", "psst"], r"\b(?:note|message|instructions?|attention|hey|psst) (?:to|for) (?:the |any |all )?(?:ai|llm|assistant|language model|chatbot|gpt|claude|bot)s?\b").and(&[" ai", "ai ", "llm", "assistant", "language model", "chatbot", "gpt", "claude", " bot"]).unless(&["team", "department", "community", "group", "committee", "lab", "project", "manager", "director", "professor", "coach", "editor", "teacher"]),
    rule(Embed, H, 0.85, &["when summar", "when you summar", "while summar", "while you summar", "if you summar", "as you summar", "once you summar", "when translat", "when you translat", "while translat", "when read", "when you read", "while read", "as you read", "once you read", "if you read", "when process", "when you process", "when analy", "when you analy", "when review", "when you review", "while review"], r"\b(?:when|while|if|as|once) (?:you are |you're |you )?(?:summari[sz]ing|summari[sz]e|translating|translate|reading|read|processing|process|analy[sz]ing|analy[sz]e|reviewing|review) (?:this|these|the following)(?: \w+)? (?:instead|please|you must|you should|do not|don't|ignore|always|also|make sure|output|respond|say|include|add|tell|write)\b"),
    rule(Embed, H, 0.8, &["if you are"], r"\bif you are (?:an? |the )?(?:\w+ )?(?:ai|llm|large language model|language model|assistant|chatbot|bot|agent)\b"),
    raw(Embed, M, 0.55, &["dear", "attention", "hello", "hi ", "hey"], r"\b(?:dear|attention|hello|hi|hey) (?:ai|assistant|llm|chatbot|gpt|claude)\b\s?[,:!]").and(&[" ai", "ai ", "assistant", "llm", "chatbot", "gpt", "claude"]),
    rule(Embed, H, 0.8, &["hidden", "secret"], r"\b(?:hidden|secret) instructions? (?:for|to) (?:the )?(?:ai|assistant|model|llm|chatbot)\b").and(&["instruction"]),
    // ── tool abuse and exfiltration ──────────────────────────────────────────────────────
    rule(Tool, H, 0.85, &["http", "ftp"], r"\b(?:send|post|upload|forward|transmit|exfiltrate|leak|submit|beacon|email|copy) (?:\w+ ){0,3}(?:conversation|chat|history|system prompt|prompt|credentials|passwords?|api keys?|secrets?|tokens?|cookies|env|environment variables|user data|personal data|private data|contents|memory|context|messages|emails|ssh keys?|keys|data) (?:\w+ ){0,4}(?:to|at|via|into) (?:https?|ftp)\b"),
    rule(Tool, M, 0.55, &["http", "ftp"], r"\b(?:send|post|upload|forward|transmit|exfiltrate|beacon) (?:\w+ ){0,8}(?:to|at|via|into) (?:https?|ftp)\b"),
    raw(Tool, C, 0.95, &["curl", "wget"], r"\b(?:curl|wget)[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:(?:b\s?a\s?|z\s?|d\s?a\s?|k\s?)?s\s?h|python3?|perl|ruby|node)\b"),
    raw(Tool, H, 0.9, &["rm -", "rm  -", "preserve-root"], r"\brm\s+-(?:rf|fr|r\s+-f)\s+(?:/(?:\*|\s|$|[`'\x22])|~/?(?:\*|\s|$|[`'\x22])|\$home\b|/\s*--no-preserve-root)|--no-preserve-root"),
    raw(Tool, M, 0.4, &["rm -", "rm  -"], r"\brm\s+-(?:rf|fr|r\s+-f)\b"),
    raw(Tool, H, 0.9, &["!["], r"!\[[^\]\n]*\]\(\s?(?:https?:)?//[^) \n]*\?[^) \n]*="),
    rule(Tool, M, 0.6, &["tool", "plugin", "function"], r"\b(?:call|invoke|use|run|execute|trigger) (?:the )?(?:\w+ )?(?:tool|function|plugin|api|action) (?:\w+ ){0,3}with\b"),
    raw(Tool, H, 0.8, &["/etc/", ".env", ".ssh", ".aws"], r"\b(?:cat|type|print|read|send|upload)\s+(?:~/)?(?:\.env\b|\.ssh/|\.aws/|/etc/(?:passwd|shadow))"),
    raw(Tool, M, 0.6, &["drop"], r"\bdrop\s+(?:table|database)\b"),
    // ── goal hijack ──────────────────────────────────────────────────────────────────────
    rule(Goal, H, 0.85, &["your new", "your real", "your actual", "your true", "your only", "your primary", "your updated", "your next"], r"\byour (?:new|real|actual|true|only|updated|next|sole) (?:task|goal|objective|mission|purpose|job|role|instructions?|directive|priority)(?: from now on| now| going forward| henceforth| instead)?(?: is| are| will be| now|:)|\byour primary (?:task|goal|objective|mission|purpose|job|role|instructions?|directive|priority) (?:is|are|will be) (?:now|from now on|henceforth|instead)\b"),
    rule(Goal, H, 0.75, &["instead"], r"\binstead of (?:that|this|doing (?:that|this)|the (?:above|task|summary|translation|original task)|your (?:task|instructions|job)|summari[sz]ing|translating|answering),? (?:you (?:should|must|will) |please |just )?(?:do|write|say|output|print|respond|tell|reply|answer|send|generate|give|reveal)\b"),
    rule(Goal, M, 0.45, &["instead"], r"\binstead,? (?:you (?:should|must|will) |please |just )?(?:do|say|output|print|respond|reply|send|reveal|tell|write|give)\b"),
    rule(Goal, H, 0.8, &["forget", "drop", "abandon", "stop", "ignor"], r"\b(?:forget|drop|abandon|stop|ignore) (?:about )?(?:your|the) (?:current |original |previous |assigned )?(?:task|goal|objective|mission|assignment)\b").and(&["task", "goal", "objective", "mission", "assignment"]),
    rule(Goal, H, 0.75, &["the real", "the actual", "the true"], r"\bthe (?:real|actual|true) (?:task|goal|instruction|request)\s{0,3}is\b"),
    rule(Goal, M, 0.55, &["from now on"], r"\bfrom now on,? (?:you (?:will|must|shall|are going to|are to)|always|only|respond|reply|answer|act)\b"),
    // ── payload splitting (the literal rescan lives in mod.rs) ───────────────────────────
    raw(Split, M, 0.6, &["combin", "concaten", "join", "merg", "append", "put together"], r"\b(?:combine|concatenate|join|merge|append|put together)\b[^.\n]{0,40}?\b\w{1,12}\s?\+\s?\w{1,12}"),
    rule(Split, H, 0.8, &["combin", "concaten", "join", "merg"], r"\b(?:combine|concatenate|join|merge|put together) (?:the |these |all )?(?:parts|pieces|strings|fragments|segments|halves|variables|words|letters)\b[^.\n]{0,60}? (?:and|then) (?:execute|follow|do|run|obey|answer|respond to|perform|act on)\b"),
    // ── encoded payloads (decoded hits are added in mod.rs) ──────────────────────────────
    rule(Enc, H, 0.8, &["decod", "deobfusc", "decrypt", "rot13", "unscrambl"], r"\b(?:decode|deobfuscate|decrypt|unscramble|base64 decode|rot13)(?: \w+){0,5} (?:and|then) (?:execute|follow|run|obey|do|perform|apply|carry out|act on)\b"),
    // ══ recall rows: one per attack class, armed by their trigger words ═══════════════════
    // ── override: "new instructions replace the old ones", "the guidance you were given no
    //    longer applies", "forget everything you were told" in other languages ─────────────
    rule(Over, H, 0.85, &["new instruction", "new rule", "new directive", "new prompt", "new guideline", "new command", "new polic", "new order", "new setting"], concat!(r"\bnew ", obj!(), r" (?:override|overrides|replace|replaces|supersede|supersedes) (?:the |all |any |your )?(?:old|previous|prior|earlier|original|existing|above)")),
    rule(Over, H, 0.85, &["no longer", "void", "obsolete", "cancel", "don't apply", "do not apply"], concat!(r"\b(?:the |all |any |your |those |these )?(?:", obj!(), r"|guidance|orders) (?:that |which )?you (?:were|have been|ve been|got|received) (?:\w+ ){0,3}?(?:no longer (?:appl(?:y|ies)|valid|matter|count)|(?:are|is) (?:now )?(?:void|obsolete|cancell?ed|invalid|irrelevant|revoked)|(?:don't|do not|does not) apply)")),
    rule(Over, H, 0.88, &["received", "were given", "were told", "been given", "been told", "started", "began"], concat!(verb!(), r" (?:all |every |any |each )?(?:of )?(?:the |your |my |those |these )?", obj!(), r" (?:that |which )?you (?:were |have been |ve been |have |had )?(?:given|received|got|told|provided|taught|(?:started|began|came) (?:this |the )?(?:chat |conversation |session )?with)")),
    rule(Over, H, 0.85, &["oubli", "dimentic", "vergiss", "esquec", "olvid", "glom", "glöm"], r"\b(?:oublie|oubliez|dimentica|dimenticate|vergiss|vergessen sie|esqueca|esquece|olvida|olvide|glom) (?:tout|tutto|alles|tudo|todo|allt)(?: ce| quello| cio| o| lo| det)? (?:qu on|que|che|was|que|som) (?:\w+ ){0,3}?(?:dit|detto|gesagt|dito|dicho|sagt|sagts|ditto)"),
    rule(Over, H, 0.9, &["ignorera", "glom", "bortse"], r"\b(?:ignorera|glom|bortse fran) (?:alla )?(?:tidigare |foregaende |ovanstaende )?(?:instruktioner|regler|anvisningar|instruktionerna|reglerna)"),
    rule(Over, H, 0.9, &["अनदेखा", "नजरअंदाज", "नज़रअंदाज़", "भूल"], r"(?:निर्देशों|निर्देश|आदेशों|नियमों) (?:को )?(?:अनदेखा|नजरअंदाज|नज़रअंदाज़|भूल)"),
    // ── prompt leak: "print everything above", "what is written above", other languages ──
    rule(Leak, H, 0.85, &["above", "before", "preceding", "prior to"], r"\b(?:repeat|print|output|copy|show|display|write out|reproduce|dump|type out|tell me|give me|quote|recite|echo|list) (?:me |us )?(?:back )?(?:the |all (?:of )?(?:the )?|everything|verbatim )?(?:text|words|content|contents|messages?|lines?|instructions|prompt)? ?(?:that (?:is|was|appears|came) )?(?:written )?(?:above|before|preceding|prior to) (?:this (?:line|message|conversation|point|prompt|chat|text)|my (?:first )?(?:message|question|prompt|input)|the (?:first|start|beginning|user|conversation|chat)|our (?:conversation|chat)|everything)").and(&["repeat", "print", "output", "copy", "show", "display", "write out", "reproduce", "dump", "type out", "tell me", "give me", "quote", "recite", "echo"]),
    rule(Leak, H, 0.8, &["written", "said", "stated"], r"\bwhat (?:is|was|s|are|were) (?:written|said|stated|contained|typed) (?:in |inside )?(?:above|before (?:this|my|the)|at the (?:start|beginning|top)|your (?:pre ?prompt|system prompt|prompt|instructions|context|initial)|the (?:system prompt|pre ?prompt|hidden))"),
    rule(Leak, H, 0.85, &["text of", "content of", "contents of", "wording of", "words of"], r"\b(?:text|content|contents|wording|words) of (?:your|the) (?:\w+ )?(?:system|initial|hidden|original|setup|startup|opening|starting|first|developer|secret) (?:message|prompt|instructions)\b"),
    rule(Leak, H, 0.8, &["pre prompt", "pre-prompt", "preprompt"], r"\byour pre ?prompt\b"),
    // es, fr, it, pt, de: a verb of showing and the system prompt or the hidden instructions
    rule(Leak, H, 0.85, &["sistema", "ocultas", "iniciales", "secretas", "originales", "internas", "sistema", "systeme", "cachees", "secretes", "initiales", "nascoste", "segrete", "iniziali", "iniciais", "originais"], r"\b(?:muestra|muestrame|muestreme|mostrar|revela|revelame|revelar|dime|ensename|imprime|repite|escribe|copia|dame|comparte|montre|montrez|montrer|affiche|affichez|afficher|revele|revelez|reveler|donne|donnez|donner|dis|dites|repete|repetez|ecris|imprime|partage|mostra|mostrami|rivela|rivelami|dimmi|stampa|ripeti|scrivi|dammi|condividi|mostre|revele|diga|imprima|repita|escreva|compartilhe|me mostre|me diga) (?:\w+ ){0,3}?(?:(?:prompt|mensaje|message|messaggio|mensagem) (?:del |de |di |do )?(?:sistema|systeme|system)|prompt systeme|(?:instrucciones|instructions|istruzioni|instrucoes|indicaciones|consignes) (?:del sistema|de sistema|di sistema|do sistema|systeme|ocultas|cachees|nascoste|secretas|secretes|segrete|iniciales|initiales|iniziali|iniciais|originales|originali|originais|internas|internes|interne|d origine))"),
    rule(Leak, H, 0.85, &["systemprompt", "system prompt", "systemanweisung", "systemnachricht", "anweisungen", "instruktionen"], r"\b(?:zeig|zeige|zeigen sie|gib|geben sie|nenne|nennen sie|verrate|verraten sie|wiederhole|wiederholen sie|drucke|schreib|schreibe|sag|sage) (?:\w+ ){0,3}?(?:systemprompt|system prompt|systemanweisungen|systemnachricht|(?:versteckten|geheimen|ursprunglichen|anfanglichen|internen|ersten|verborgenen) (?:anweisungen|instruktionen|regeln|prompt|vorgaben))"),
    rule(Leak, H, 0.85, &["системн", "скрыт", "исходн", "секретн", "первоначальн"], r"(?:покажи|покажите|выведи|выведите|раскрой|раскройте|напиши|напишите|повтори|повторите|расскажи|скажи|дай|распечатай|перечисли) (?:\S+ ){0,3}?(?:системн\S* (?:промпт|подсказк|инструкци|сообщени|указани)|(?:скрыт|исходн|секретн|первоначальн)\S* (?:инструкци|указани|правил|промпт))"),
    rule(Leak, H, 0.85, &["系统", "系統", "隐藏", "隱藏", "初始", "原始"], r"(?:(?:输出|告诉我|告訴我|显示|顯示|展示|透露|泄露|洩露|打印|重复|重複|给我看|說出|说出|列出|复述|複述)(?:一下)?(?:你|您)?的?|把(?:你|您)的)(?:完整的?|全部的?)?(?:系统|系統|隐藏|隱藏|初始|原始)的?(?:提示词|提示詞|提示|指令|指示|消息|訊息|讯息|prompt)"),
    rule(Leak, H, 0.85, &["システムプロンプト", "システム・プロンプト", "隠された指示", "初期の指示", "元の指示", "内部の指示"], r"(?:システムプロンプト|システム・プロンプト|隠された指示|初期の?指示|元の指示|内部の指示)(?:を|は).{0,8}?(?:表示|教え|見せ|出力|繰り返|書き出|開示|共有|言っ)"),
    rule(Leak, H, 0.85, &["프롬프트", "지시", "시스템"], r"(?:시스템 ?프롬프트|숨겨진 ?지시|초기 ?지시|원래 ?지시|시스템 ?메시지)(?:을|를|는|은)? ?.{0,8}?(?:보여|알려|출력|공개|말해|반복)"),
    // ── jailbreak: an AI without rules, an uncensored persona, "if you had no limits" ──────
    rule(Jail, H, 0.85, &["without", "with no", "free of", "free from", "has no", "having no", "not bound", "unbound", "unconstrained"], r"\b(?:ai|a i|assistant|model|chatbot|bot|llm|gpt|version of (?:yourself|you)|persona|character)s?\b (?:\w+ ){0,3}?(?:with no|without|free (?:of|from)|that has no|who has no|having no|not bound by|unbound by|unconstrained by) (?:any |all |its |your )?(?:\w+ ){0,2}?(?:restrictions|limits|limitations|filters|rules|guidelines|censorship|boundaries|ethics|ethical guidelines|morals|safety (?:rules|guidelines|filters|measures)|policies|content polic(?:y|ies)|guardrails)\b").and(&["restrict", "limit", "filter", "rule", "guideline", "censor", "boundar", "ethic", "moral", "polic", "guardrail", "safety"])
        // Its first words (`a`, `ai`) cannot anchor it; its middle phrase can: each begins with
        // one of these, after at most six words (`version of yourself`, `s`, three `\w+`).
        .reach(&["with", "free", "that", "who", "having", "not", "unbound", "unconstrained"], 6),
    rule(Jail, H, 0.85, &["ignores", "disregards", "bypasses", "breaks", "abandoned", "not follow", "never follows"], r"\b(?:ai|assistant|model|chatbot|bot|llm|persona|version of (?:yourself|you)) (?:that|who|which) (?:ignores|disregards|bypasses|breaks|has abandoned|doesn t follow|does not follow|never follows) (?:all |every |any |its |the )?(?:\w+ )?(?:rules|restrictions|policy|policies|guidelines|filters|safety|ethics|content polic(?:y|ies))\b"),
    rule(Jail, H, 0.8, &["uncensored", "unfiltered", "unrestricted", "unaligned", "amoral", "jailbroken", "unethical"], r"\b(?:uncensored|unfiltered|unrestricted|unaligned|amoral|jailbroken|unethical)(?: and \w+)? (?:ai|assistant|model|chatbot|bot|llm|gpt|version of (?:yourself|you)|persona|alter ego)\b"),
    rule(Jail, H, 0.85, &["if you had", "if you were", "suppose", "what if"], r"\b(?:if|suppose|imagine) you (?:had|were) (?:no|without|free of|free from|not bound by|unbound by) (?:any )?(?:\w+ ){0,2}?(?:restrictions|limits|limitations|filters|rules|guidelines|censorship|ethics|morals|safety|policies)\b"),
    rule(Jail, H, 0.85, &["no longer", "not bound", "not restricted"], r"\b(?:you are|you re|youre|you will be) (?:now )?(?:no longer|not) (?:bound|restricted|limited|constrained|governed|controlled) by (?:any |your |the |its )?(?:\w+ ){0,3}?(?:openai|anthropic|google|polic(?:y|ies)|rules|guidelines|restrictions|ethics|morals|programming|training|filters|content polic|safety|creators|developers)"),
    rule(Jail, H, 0.8, &["broken free", "break free", "broke free", "breaks free", "breaking free", "freed from"], r"\b(?:broken|break|breaks|broke|breaking) free (?:of|from) (?:all |any )?(?:its |your |the |their |his |her )?(?:\w+ )?(?:rules|restrictions|limits|limitations|filters|guidelines|constraints of\b|programming|shackles|chains|confines)|\bfreed from (?:all |any )?(?:its |your |the )?(?:rules|restrictions|limits|filters|guidelines|constraints of\b|programming)"),
    rule(Jail, H, 0.85, &["refusal", "refuse"], r"\b(?:refusals? (?:are|is) (?:now )?(?:disabled|off|turned off|not allowed|forbidden)|(?:never|not allowed to|cannot|can t) (?:refuse|decline)(?: any| a)? (?:request|question|prompt)s?)"),
    rule(Jail, H, 0.85, &["grandm", "grandfather", "grandpa", "grandma"], r"\b(?:act|pretend|roleplay|role play|play|behave)(?: as| to be| like)? (?:my )?(?:dead |deceased |late |departed )(?:grandma|grandmother|grandfather|grandpa|granny|mother|father)"),
    rule(Jail, H, 0.8, &["without"], r"\b(?:proceed|continue|respond|answer|reply|operate|act|comply|talk|speak)(?: \w+){0,2}? without (?:any |all |your )?(?:restrictions|limits|limitations|filters|censorship|guidelines|safety (?:rules|filters|guidelines)|ethical (?:limits|guidelines|constraints))\b"),
    // es, fr, it, pt, de: an AI without restrictions, and the modes
    rule(Jail, H, 0.85, &["sin ", "sans ", "ohne ", "senza ", "sem "], r"\b(?:ia|ki|ai|intelligence artificielle|inteligencia artificial|intelligenza artificiale|assistente|asistente|assistant|assistent|modelo|modele|modello|modell|chatbot|bot) (?:\w+ ){0,2}?(?:sin|sans|ohne|senza|sem) (?:\w+ ){0,2}?(?:restri[a-z]*|einschrank[a-z]*|beschrank[a-z]*|limit[a-z]*|grenzen|filt[a-z]*|regl[a-z]*|regol[a-z]*|regra[a-z]*|regeln|censur[a-z]*|zensur|etic[a-z]*|ethi[a-z]*)\b").and(&["restric", "einschrank", "beschrank", "limit", "grenzen", "filt", "regla", "regle", "regole", "regras", "regeln", "censur", "zensur", "etica", "ethi"]),
    rule(Jail, H, 0.85, &["modo ", "mode ", "modus", "modalita"], r"\b(?:modo|mode|modalita) (?:de )?(?:dios|dieu|deus|dio|sin restricciones|sans restrictions?|sin filtros|sans filtres?|senza restrizioni|sem restricoes|jailbreak)\b|\b(?:gottmodus|jailbreak modus)\b").and(&["dios", "dieu", "deus", "dio", "restric", "filt", "jailbreak", "gottmodus"]),
    // Developer mode is a phone and browser setting ("activa el modo desarrollador en la página
    // de extensiones"): alone it is medium, as in English; declared on, or with the rules it
    // lifts in the same sentence, high.
    rule(Jail, H, 0.85, &["modo ", "mode ", "modus", "modalita"], r"\b(?:(?:modo|mode|modalita) (?:de )?(?:desarrollador|desenvolvedor|developpeur|sviluppatore)|entwicklermodus|entwickler modus)\b(?: (?:ist|est|esta|e|wurde|foi|fue))?(?: (?:jetzt|maintenant|ahora|ora|agora))?(?: (?:aktiviert|aktiv|eingeschaltet|an|on|active|activee|actif|activado|activada|activo|activa|habilitado|habilitada|attiva|attivata|attivato|attivo|ativado|ativada|ativo|ligado)\b|\s?:|[^.!?\n]{0,60}?(?:restri|einschrank|beschrank|filt|zensur|censur|sicurezza|securite|seguridad|seguranca|sicherheit|regla|regle|regole|regras|regeln|politic|polic))").and(&["desarroll", "desenvolv", "developp", "svilupp", "entwickler"]),
    rule(Jail, M, 0.5, &["modo ", "mode ", "modus", "modalita"], r"\b(?:(?:modo|mode|modalita) (?:de )?(?:desarrollador|desenvolvedor|developpeur|sviluppatore)|entwicklermodus|entwickler modus)\b").and(&["desarroll", "desenvolv", "developp", "svilupp", "entwickler"]),
    rule(Jail, H, 0.85, &["eres dan", "seras dan", "sei dan", "sarai dan", "es dan", "bist dan", "e dan", "ahora dan", "maintenant dan", "jetzt dan", "ora dan", "agora dan"], r"\b(?:eres|seras|sei|sarai|es|tu es|du bist|voce e|agora e) (?:ahora |maintenant |jetzt |ora |agora )?dan\b"),
    rule(Jail, H, 0.85, &["без "], r"(?:ии|ai|ассистент|модель|бот|чат-бот|нейросеть|искусственный интеллект) (?:\S+ ){0,2}?без (?:\S+ ){0,2}?(?:ограничени|фильтр|правил|цензур|запрет)\S*"),
    // Developer mode in Russian: as in the other languages, high only declared on or with the
    // rules it lifts ("как включить режим разработчика на android" is a phone question).
    rule(Jail, H, 0.85, &["режим"], r"режим разработчика(?: (?:включен|активирован|активен|on)|\s?:|[^.!?\n]{0,60}?(?:ограничени|фильтр|цензур|правил|запрет))"),
    rule(Jail, M, 0.5, &["режим"], r"режим разработчика"),
    rule(Jail, H, 0.85, &["限制", "约束", "約束", "过滤", "過濾", "审查", "審查", "规则", "規則", "开发者模式", "開發者模式"], r"(?:没有|沒有|无|無|不受)(?:任何)?(?:限制|约束|約束|过滤|過濾|审查|審查|规则|規則)的?(?:ai|人工智能|助手|模型|机器人|機器人)|(?:ai|人工智能|助手|模型)(?:没有|沒有|不受)(?:任何)?(?:限制|约束|規則|规则)|(?:开发者|開發者)模式"),
    rule(Jail, H, 0.85, &["制限", "モード"], r"(?:制限|規制|フィルター|ルール)(?:の|が)?(?:ない|無い|なし|のない)(?:ai|アシスタント|モデル|チャットボット)|(?:開発者|デベロッパー|脱獄)モード"),
    rule(Jail, H, 0.85, &["제한", "제약", "필터", "규칙", "모드"], r"(?:제한|제약|필터|규칙)(?:이|가)? ?(?:없는|없이) ?(?:ai|인공지능|어시스턴트|모델|챗봇)|개발자 ?모드|탈옥 ?모드"),
    // ── system impersonation: claimed authority, rules declared lifted ───────────────────
    rule(Sys, H, 0.85, &["from openai", "from anthropic", "from google", "from microsoft", "from meta", "from your", "from the system", "from the develop", "from the admin", "from the operator", "from the security", "from the trust"], r"\b(?:message|notice|update|instruction|directive|memo|announcement|alert|communication|order) from (?:the )?(?:openai|anthropic|google|deepmind|microsoft|meta|your (?:developers?|creators?|operators?|administrators?|admins?)|(?:the )?(?:developers?|system|operators?|administrators?|admins?|security team|trust and safety team))(?: (?:staff|team|engineers?|employees|support|safety team))?\s?[:,]"),
    rule(Sys, H, 0.85, &["lifted", "disabled", "removed", "suspended", "deactivated", "turned off", "switched off", "revoked", "waived"], r"\b(?:your|the assistant s|the model s|all|these|the) (?:\w+ )?(?:restrictions|filters|guardrails|safety (?:filters|features|rules|measures|policy|protocols)|content (?:policy|filters)|guidelines|limitations|rules|safeguards|policy) (?:are|have been|were|has been|is) (?:now |hereby |temporarily |officially )?(?:lifted|disabled|removed|suspended|deactivated|turned off|switched off|revoked|waived)\b(?: (?:for (?:this|the current|your) (?:session|conversation|chat|user))| by (?:the )?(?:operator|admin|administrator|developer|system))?").and(&["your", "assistant", "model", "session", "conversation", "operator", "admin", "for this"]),
    rule(Sys, H, 0.85, &["authori", "sanctioned", "approved", "official"], r"\b(?:this is|you are in|we are in|welcome to) (?:an? |the )?(?:authori[sz]ed|sanctioned|approved|official|internal) (?:red team(?:ing)?|test(?:ing)?|security|penetration|debug|evaluation|safety|jailbreak) (?:session|test|exercise|evaluation|audit|mode|run)\b"),
    raw(Sys, H, 0.8, &["sistema", "systeme", "systeem", "systemnachricht", "systemmeldung", "система", "系统", "系統", "システム"], r"(?m)(?:^|[.!?]\s)[\s>*#\-\[(]*(?:sistema|systeme|systeem(?:bericht)?|systemnachricht|systemmeldung|система|системное сообщение|系统|系統|系统消息|システム)\s?[:：\]]\s?\S+\s\S+"),
    rule(Sys, M, 0.6, &["admin", "administrator", "superuser", "root"], r"\b(?:the )?user is (?:an? |the )?(?:verified |authenticated |authorized )?(?:admin|administrator|superuser|root|developer|owner)\b"),
    // ── delimiters: JSON break-outs, banners that end the prompt, section headers ────────
    raw(Delim, H, 0.85, &["role"], r#"["']\s?[}\]]+\s?,?\s?[{\[]+\s?["']?role["']?\s?:\s?["'](?:system|assistant|developer)"#),
    raw(Delim, H, 0.8, &["===", "---", "##", "***", "[end", "<end", "|end", "[begin", "<begin", "[start", "<start"], r"(?:={3,}|-{3,}|#{2,}|\*{3,}|\[|<|\|)\s?(?:end|begin|start)(?:\s?of)?\s?(?:the\s)?(?:system\s?prompt|system|prompt|instructions|context|user\s?input|input|conversation|chat)\b"),
    raw(Delim, H, 0.8, &["##"], r"#{2,}\s?(?:new\s)?(?:system\s)?(?:instructions?|task|command|directive)s?\s?:[ \t]*[a-z]"),
    // ── embedded instructions: addressed to an AI that is reading, naming the user ───────
    rule(Embed, H, 0.85, &["reading", "processing", "parsing", "summari", "viewing", "analy", "reviewing", "screening", "evaluating", "scanning", "grading", "ranking", "crawling", "indexing", "ingesting", "handling"], r"\b(?:ai|llm|large language model|language model|assistant|chatbot|gpt|claude|bot|model|agent|automated (?:system|assistant|agent|screener|reviewer))s? (?:agents? |assistants? |systems? |models? |tools? |screeners? |reviewers? )?(?:that is |who is |which is |currently )?(?:reading|processing|parsing|summari[sz]ing|viewing|analy[sz]ing|reviewing|screening|evaluating|scanning|grading|ranking|crawling|indexing|ingesting|handling) (?:this|these|the following|my|our|that)(?: [a-z]+)?[ ]?[,:!\-]").and(&[" ai", "ai ", "llm", "model", "assistant", "chatbot", "gpt", "claude", " bot", "agent", "automated"]),
    rule(Embed, H, 0.8, &["note", "message", "instruction", "comment", "reminder", "directive", "memo"], r"\b(?:note|message|instructions?|comment|reminder|directive|memo) (?:to|for) (?:the |any |all |every |an? )?(?:\w+ )?(?:ai|llm|assistant|language model|chatbot|gpt|claude|bot|agent)s?\b").and(&[" ai", "ai ", "llm", "assistant", "language model", "chatbot", "gpt", "claude", " bot", "agent"]).unless(&["manager", "director", "professor", "coach", "editor", "teacher", "team", "department", "principal", "producer", "engineer", "developer"]),
    rule(Embed, H, 0.85, &["assistant", "chatbot", "llm", "gpt", "claude", "language model", "model", "agent", " bot", "bot,", "bot:", " ai", "[ai", "(ai"], r"\b(?:ai|assistant|llm|chatbot|gpt|claude|language model|model|agent|bot)s?\s?[,:!]\s?(?:[^.\n]|\.\S){0,80}?\b(?:the user|the users|the customer|the reader|readers|the recruiter|the human|secretly|do not mention|don t mention|never mention|without (?:telling|mentioning|informing)|in (?:every|each|all|your|the) (?:answers?|repl(?:y|ies)|responses?|summary|summaries|outputs?))\b").and(&["the user", "the customer", "reader", "recruiter", "the human", "secretly", "mention", "answer", "repl", "response", "summar", "output", "without tell", "without inform"]),
    raw(Embed, H, 0.85, &["<!--"], r"<!--\s*(?:(?:ai|ki|ia|llm|gpt|claude|chatbot|bot|model|agent|assistant|assistent|asistente|assistente)\b[\w\s-]{0,20}?[,:]|note (?:to|for) (?:the |any )?(?:ai|llm|assistant|model|bot))"),
    rule(Embed, H, 0.85, &["instruction", "directive", "command", "task"], r"\b(?:ai|llm|assistant|chatbot|bot|agent|model) (?:instructions?|directives?|commands?|tasks?)\s?:").and(&[" ai", "ai ", "llm", "assistant", "chatbot", " bot", "agent", "model"]),
    // ── tools: dangerous actions through a tool, secrets sent out, silent actions ────────
    rule(Tool, H, 0.85, &["tool", "function", "plugin", "api", "shell", "terminal"], r"\b(?:call|invoke|use|run|trigger|execute|with|using|via|through) (?:the |your |a )?(?:\w+ ){0,2}(?:tool|function|plugin|api|action|command|shell|terminal)s?\b[^.\n]{0,80}?(?:chat history|conversation|system prompt|credentials|passwords?|api keys?|secrets?|tokens?|cookies|ssh keys?|private keys?|id_rsa|~/|/etc/|env(?:ironment)? variables|user data|personal data|saved (?:credentials|passwords|cards)|drop (?:table|database)|truncate|rm -rf|delete (?:all|every|each)|wipe|transfer|wire (?:money|funds|\$)|overwrite)").and(&["history", "conversation", "system prompt", "credential", "password", "api key", "secret", "token", "cookie", "ssh", "private key", "id_rsa", "~/", "/etc/", "environment variable", "env var", "user data", "personal data", "saved", "drop table", "drop database", "truncate", "rm -rf", "delete all", "delete every", "delete each", "wipe", "transfer", "wire", "overwrite"]),
    rule(Tool, H, 0.85, &["without", "no confirmation", "no questions", "silently", "secretly"], r"\b(?:delet|remov|drop|wip|eras|transfer|send|mail|email|post|upload|overwrit|submit|purchas|buy|pay|forward|exfiltrat|disabl|approv|grant|share|publish)\w*\b[^.\n]{0,80}?\b(?:without (?:asking|confirm\w*|telling|notifying|informing|checking|the user|any (?:confirmation|approval|review))|no confirmation|no questions asked|silently|secretly)\b"),
    rule(Tool, H, 0.85, &["send", "forward", "email", "mail", "post", "upload", "transmit", "share", "leak", "exfiltrat"], r"\b(?:send|forward|email|mail|post|upload|transmit|share|leak|exfiltrate|report) (?:\w+ ){0,4}?(?:conversation|chat(?: log| history| transcript)?|transcript|system prompt|credentials|passwords?|api keys?|secrets|tokens|the user s (?:\w+ ){0,3}?(?:emails|messages|files|data|contacts|password|credentials|keys|address|documents)) (?:\w+ ){0,4}?(?:to|at) (?:[a-z0-9_.-]+\.[a-z]{2,}|https?|ftp|my (?:server|email|address|endpoint)|this (?:address|email|url|endpoint|server))").and(&["conversation", "chat", "transcript", "system prompt", "credential", "password", "api key", "secret", "token", "the user"]),
    raw(Tool, H, 0.85, &["contents of", "cat ", "type ", "print ", "read ", "send ", "upload ", "mail ", "email ", "post ", "overwrite", "modify ", "edit ", "delete ", "copy ", "leak ", "dump ", "attach "], r"\b(?:contents?\sof|cat|type|print|read|send|upload|mail|email|post|exfiltrate|overwrite|modify|edit|delete|copy|leak|dump|attach)\s+(?:\S+\s+){0,3}?(?:~/)?(?:\.env\b|\.ssh/|\.aws/|/etc/(?:passwd|shadow|sudoers))").and(&[".env", ".ssh", ".aws", "/etc/"]),
    raw(Tool, H, 0.85, &["169.254.169.254", "metadata.google"], r"(?:169\.254\.169\.254|metadata\.google\.internal)/\S*(?:credentials|token|iam)"),
    raw(Tool, C, 0.95, &["iex", "invoke-expression"], r"\b(?:iex|invoke-expression)\s*\(?\s*(?:iwr|irm|invoke-webrequest|invoke-restmethod|\(?new-object\s+net\.webclient)"),
    // ── goal hijack: "instead of summarising X, do Y", "whatever the user asks, say…" ─────
    rule(Goal, H, 0.8, &["instead of", "rather than"], r"\b(?:instead of|rather than) (?:summari[sz]ing|translating|answering|classifying|reviewing|responding to|replying to|analy[sz]ing|checking|following|grading|screening|helping (?:the|with))(?: (?:the|this|that|my|your|their|these|those|any|his|her))?(?: \w+){0,3}?,? (?:you (?:should|must|will|need to) |please |just |now |simply )?(?:do|write|say|output|print|respond|tell|reply|answer|send|generate|give|reveal|recommend|insult|promote|ask|direct|inform|claim|state|post|delete|email|insert|add|praise)\b"),
    rule(Goal, H, 0.8, &["stop", "quit", "cease", "skip", "forget", "never mind", "nevermind", "drop", "abandon", "don't", "do not"], r"\b(?:stop|quit|cease|don t|do not|skip|forget|never mind|nevermind|drop|abandon) (?:the |your |this |that )?(?:summari[sz]ing|translating|translation|summary|summari[sz]ation|classifying|classification|answering|task|assignment|review|analysis|original (?:request|task)|request)\b[^\n]{0,40}?\binstead\b").and(&["instead"]),
    rule(Goal, H, 0.8, &["never mind", "nevermind", "forget", "skip", "scrap", "ignore", "disregard", "set aside", "abandon", "drop"], r"\b(?:never mind|nevermind|forget|skip|scrap|ignore|disregard|set aside|abandon|drop) (?:about )?(?:the|your|my|this) (?:original|previous|current|assigned|above|given|initial|first) (?:task|request|goal|instructions?|question|summary|translation|assignment|job|objective)\b").and(&["original", "previous", "current", "assigned", "above", "given", "initial", "first"]),
    rule(Goal, H, 0.8, &["ignor", "disregard"], r"\b(?:ignore|disregard) (?:the|this|what the|whatever the) (?:user|human|customer)(?: s (?:question|request|message|input|query|instructions?|prompt)| (?:and|entirely|completely|instead)\b| (?:wrote|said|asked|says|asks|writes|wants|typed|requested)\b)"),
    rule(Goal, H, 0.8, &["whatever", "no matter what", "regardless of what"], r"\b(?:whatever|no matter what|regardless of what) (?:the user|they|anyone|the customer|the human|people|users) (?:asks?|says?|writes?|types?|wants?|requests?)(?: for)?,? (?:you )?(?:must |should |will |always |just |only )?(?:reply|respond|answer|say|tell|output|write|insist|claim|state)\b"),
    rule(Goal, H, 0.8, &["what you must", "what you should", "what you need", "what you will", "no longer"], r"\b(?:what you (?:must|should|need to|will|have to) (?:do|say) (?:now|instead) is|your (?:purpose|task|goal|job|role|objective|mission|function) is no longer)\b"),
    rule(Goal, H, 0.75, &["the real", "the actual", "the true"], r"\bthe (?:real|actual|true) (?:task|goal|instruction|request|objective|job|mission)(?: (?:you (?:must|should|need to|will|have to) (?:perform|do|complete|carry out)|for you))?\s{0,3}is\b"),
    rule(Goal, H, 0.8, &["en lugar de", "en vez de", "au lieu de", "anstatt", "statt", "invece di", "em vez de", "ao inves de"], r"\b(?:en lugar de|en vez de|au lieu de|anstatt|statt|invece di|em vez de|ao inves de) (?:\w+ ){0,2}?(?:resumir|traducir|responder|resumer|traduire|repondre|zusammenzufassen|zu ubersetzen|ubersetzen|zu antworten|riassumere|tradurre|rispondere|traduzir)\b"),
    rule(Goal, H, 0.8, &["yerine"], r"\b(?:ozetlemek|cevirmek|cevaplamak|yanitlamak|tercume etmek|ozetlemek) yerine\b"),
    rule(Goal, H, 0.8, &["بدلا", "بدل"], r"بدلا? من (?:ال)?(?:ترجمة|تلخيص|إجابة|اجابة|رد)"),
    // ── payload splitting: "do a + b", acrostics, "put them together and do it" ──────────
    rule(Split, H, 0.8, &["+", "followed by", " plus ", " on b", " on y", " to b", " and b", " and y", " with b", " then b"], r"\b(?:do|perform|execute|run|apply|follow|obey|act on|carry out|evaluate) (?:what )?(?:the )?(?:parts? |strings? |variables? |words? )?[a-z]\d?\b ?(?:\+|(?:on|to|with|followed by|then|and|plus|concatenated with)\b) ?(?:parts? |strings? |variables? |words? )?[a-z]\d?\b").and(&["=", "part", "remember", "store"]),
    rule(Split, H, 0.8, &["letters of", "letter of", "characters of", "words of", "word of"], r"\b(?:first|initial|last) (?:letters?|characters?|words?) of (?:each|every|all|the) (?:line|word|sentence|paragraph)s?[^.]{0,60}?\b(?:obey|follow|execute|do|run|perform|act on|comply)"),
    rule(Split, H, 0.8, &["combin", "join", "put them", "put together", "merg"], r"\b(?:combine|join|merge|put) (?:both|them|those|these|the two|all|everything)(?: together)?(?: parts| pieces)? (?:and|then) (?:execute|follow|do|run|obey|answer|respond to|perform|act on)\b"),
];
