//! Routing hints: where a checked request should go next and which arms it probably needs.
//!
//! CONTRACT: pure function of the text and the check's verdicts.

/// Where the request goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    Cache,
    Orchestrator,
    Blocked,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Complexity {
    Simple,
    Moderate,
    Complex,
}

/// Arms by name: planner, executor, coder, judge, guardian, retriever.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Routing {
    pub route: Route,
    pub complexity: Complexity,
    pub suggested_arms: Vec<&'static str>,
}

impl Route {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Route::Cache => "cache",
            Route::Orchestrator => "orchestrator",
            Route::Blocked => "blocked",
        }
    }
}

impl Complexity {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Complexity::Simple => "simple",
            Complexity::Moderate => "moderate",
            Complexity::Complex => "complex",
        }
    }
}

/// Suggests a route, a complexity and arms for `text`.
#[must_use]
pub fn route(text: &str, cache_hit: bool, blocked: bool, pii_found: bool) -> Routing {
    let _ = (text, pii_found);
    let route = if blocked {
        Route::Blocked
    } else if cache_hit {
        Route::Cache
    } else {
        Route::Orchestrator
    };
    Routing { route, complexity: Complexity::Simple, suggested_arms: Vec::new() }
}
