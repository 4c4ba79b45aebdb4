//! The agent's one tool, `get_restaurants`, over the example's own data file.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The restaurant data shipped with the example (`restaurants.json` beside this file).
const DATA: &str = include_str!("restaurants.json");

/// Name of the tool as the model sees it.
pub const GET_RESTAURANTS: &str = "get_restaurants";

/// Most results one call returns.
pub const MAX_COUNT: usize = 10;

/// One restaurant from the data file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Restaurant {
    pub name: String,
    pub cuisine: String,
    pub city: String,
    pub detail: String,
    pub rating: f64,
    pub address: String,
    pub image_url: String,
    pub info_link: String,
}

/// Arguments of `get_restaurants`, as the model writes them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GetRestaurantsArgs {
    #[serde(default)]
    pub cuisine: String,
    #[serde(default)]
    pub location: String,
    #[serde(default)]
    pub count: Option<u64>,
}

/// Every restaurant in the data file.
pub fn all_restaurants() -> Result<Vec<Restaurant>, String> {
    serde_json::from_str(DATA).map_err(|e| format!("restaurant data is malformed: {e}"))
}

/// Known cuisines, in data-file order, without repeats.
pub fn cuisines() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in all_restaurants().unwrap_or_default() {
        if !out.iter().any(|c| c.eq_ignore_ascii_case(&r.cuisine)) {
            out.push(r.cuisine);
        }
    }
    out
}

/// Known cities, in data-file order, without repeats.
pub fn cities() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in all_restaurants().unwrap_or_default() {
        if !out.iter().any(|c| c.eq_ignore_ascii_case(&r.city)) {
            out.push(r.city);
        }
    }
    out
}

fn location_matches(city: &str, location: &str) -> bool {
    let city = city.to_lowercase();
    let location = location.trim().to_lowercase();
    if location.is_empty() || location.contains(&city) || city.contains(&location) {
        return true;
    }
    // Common short names of the cities in the data file.
    matches!(
        (city.as_str(), location.as_str()),
        (
            "new york",
            "nyc" | "manhattan" | "brooklyn" | "queens" | "ny"
        ) | ("san francisco", "sf" | "bay area")
    )
}

/// Restaurants matching a cuisine and a location (both case-insensitive, empty matches all),
/// best rated first, at most `count` (clamped to 1..=[`MAX_COUNT`]).
pub fn get_restaurants(cuisine: &str, location: &str, count: usize) -> Vec<Restaurant> {
    let cuisine = cuisine.trim().to_lowercase();
    let mut found: Vec<Restaurant> = all_restaurants()
        .unwrap_or_default()
        .into_iter()
        .filter(|r| {
            (cuisine.is_empty()
                || r.cuisine.to_lowercase().contains(&cuisine)
                || cuisine.contains(&r.cuisine.to_lowercase()))
                && location_matches(&r.city, location)
        })
        .collect();
    found.sort_by(|a, b| b.rating.total_cmp(&a.rating));
    found.truncate(count.clamp(1, MAX_COUNT));
    found
}

/// The tool's JSON schema, in the OpenAI function-tool shape (`name`, `description`, `parameters`).
pub fn get_restaurants_definition() -> Value {
    json!({
        "name": GET_RESTAURANTS,
        "description": "Look up restaurants by cuisine and location. Returns a JSON array of restaurants \
                        (name, cuisine, city, detail, rating, address, imageUrl, infoLink), best rated first.",
        "parameters": {
            "type": "object",
            "properties": {
                "cuisine": {"type": "string", "description": "Cuisine, e.g. Chinese, Italian, Mexican."},
                "location": {"type": "string", "description": "City, e.g. New York."},
                "count": {"type": "integer", "description": "How many restaurants to return (1-10).", "minimum": 1, "maximum": 10}
            },
            "required": ["cuisine", "location"]
        }
    })
}

/// Runs a tool call: the tool's name and its JSON arguments in, the result (JSON text) out.
/// Unknown tools and malformed arguments give an error text that goes back to the model.
pub fn call_tool(name: &str, arguments: &str) -> Result<String, String> {
    if name != GET_RESTAURANTS {
        return Err(format!("unknown tool `{name}`"));
    }
    let args: GetRestaurantsArgs = serde_json::from_str(if arguments.trim().is_empty() {
        "{}"
    } else {
        arguments
    })
    .map_err(|e| format!("arguments of {GET_RESTAURANTS} are not valid: {e}"))?;
    let count = args.count.unwrap_or(5).min(MAX_COUNT as u64) as usize;
    let found = get_restaurants(&args.cuisine, &args.location, count);
    serde_json::to_string(&found).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_by_cuisine_and_city_best_first() {
        let found = get_restaurants("chinese", "New York", 10);
        assert_eq!(found.len(), 6);
        assert!(
            found
                .iter()
                .all(|r| r.cuisine == "Chinese" && r.city == "New York")
        );
        assert!(found.windows(2).all(|w| w[0].rating >= w[1].rating));
        assert_eq!(get_restaurants("Chinese", "nyc", 2).len(), 2);
        assert_eq!(
            get_restaurants("italian", "sf", 5)[0].name,
            "Piccolo Forno North Beach"
        );
        assert!(get_restaurants("Peruvian", "New York", 5).is_empty());
        assert_eq!(get_restaurants("", "", 50).len(), MAX_COUNT);
    }

    #[test]
    fn tool_calls_answer_json_or_an_error() {
        let out: Vec<Restaurant> = serde_json::from_str(
            &call_tool(
                GET_RESTAURANTS,
                r#"{"cuisine":"Mexican","location":"New York","count":2}"#,
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(out.len(), 2);
        assert!(
            call_tool("get_weather", "{}")
                .unwrap_err()
                .contains("unknown tool")
        );
        assert!(
            call_tool(GET_RESTAURANTS, "{\"cuisine\":")
                .unwrap_err()
                .contains("not valid")
        );
    }
}
