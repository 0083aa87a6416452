use super::rules;

use crate::pii::{detect, PiiKind};

fn keys(text: &str) -> Vec<(PiiKind, &str)> {
    detect(text).into_iter().map(|m| (m.kind, &text[m.start..m.end])).collect()
}

/// One fake token per provider of the table, random but in the documented format (the age
/// key with a valid bech32 checksum).
const TOKENS: &[&str] = &[
        "AKIA3HGAZYX9DOWG5M4R",
        "ABIAXC7HO000VKFVOM1B",
        "ACCAJLYYQTOO96R4XNDM",
        "ghu_tXNMPqAXiuF3XRcNWc0fZ581jIBgb32enswF",
        "ghs_wTjT7fXwZ8Qz8IpCRMRz5KaeHCk7FeRvH4SU",
        "ghr_eledHRZHeDFHzMGL3ZDF2gyjniYpMBoCO0WX",
        "gldt-qQLAAIjd24DIL0OuHSny",
        "glrt-0DrNxNmJA4luSa8AIJox",
        "glptt-a48a96ffd84bf53710e0f48a0c5894ee3a1fa356",
        "xoxe.xoxp-1-a7rjNmpFBwFKA0sayAYj626HqwZGxomRXKdaoNLTAfmlKj4hqogFsPKHLaZDF0yTlzgdqn0f1EznBuwBEYmpPj8uqDX4uQ7ziEb1nJiJRJ2o5PQ5GatXKHOPB5eoFT3TwbwREgOhShpc",
        "xapp-1-AF316PYH0CE-9615595159831-3d450aa1a59f88197f93999f3cc53a5063357291b1c535523a350b2a6dd51af2",
        "rk_test_H1j3SYdp3pD2FGI7HFzvCGiF",
        "whsec_qk6RK2zzB9GBcplnPz6bKvCYReA4JEDr",
        "SK6417ae0e646f1c80804ffc294b97d4d0",
        "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",
        "key-0f27aa7931cee1f1c5bf80b31ad2725b",
        "npm_4zQw8PIeudPqvpVjcNgZBVQ9VnWpWscf0hB4",
        "pypi-AgEIcHlwaS5vcmcVlxJZ_NpANyax2R64pVKJo-rT14FcL-HaxHekDV5OGDGEcIzzOLWON8oc11J8Ir8KKJtW7",
        "dckr_pat_NLQNWRmfjvakbXjdJ5VTqGSjlaZ",
        "dop_v1_f0aadb76b5210b55a304ef51371394ae276d9d71741b29fc5bb9c46745d5a682",
        "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",
        "lin_api_Bp27hD5pO4tDkB7LwwapcgJtUROk9NpDQZIn5QiV",
        "PMAK-7d2e57a5caac1ccf90cc58af-f9b685790f012ea54a5de070ba8e08f0ec",
        "dapi3b611ce71da18246f850271622260f9d",
        "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",
        "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",
        "sk-ant-api03-5gTDW75WiMe6UqJ0-P2H0KMuaqaOfvETP_daTNOIx8EBe7qOnyuxEQ76e2Dxxr4QfGjFxrpujWoAXK8AclSB0Lnm-CO6PAA",
        "sk-svcacct-lCa5LJxdoZd0DkeryvYX4r3uTzUjEK_yb6iJdhPXRzQ3A4otpNgjIPJD3oyaGai-",
        "glc_fDDkfL3AdDh2R8PZv1qhG0r0YSl62Qh0VpTPlotwfn0t8pzb",
        "glsa_P1rlpaJSBU8iftl3tqlEHIk6pvAceIwf_2297ae5c",
        "NRAK-VS87OT52ACBEJPVUA9PTZQLUUIB",
        "NRJS-59e5b667a9bbc463308",
        "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",
        "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",
        "EAAAVHBA-9bw03jcHbYN_22Zg7GJiX2FjspVnAFsPkFuh4e9lFWdYzEw361H7W8h",
        "sq0csp-ADXmyc4-bJhypH2c0YN-VU7nhx8MdbeqNgc7MUpJxeV",
        "pscale_pw_zaHzHgmg8vC-4gg_BuI28Mb_gLvu_KSmMG1bjLeAXK8",
        "ya29.a0Bg20lh5kwvUKH_dVlsh4okYtsNNxjCg7ACpo60GIuJc6Xs7rxGJJc12UyFq-NhN_xXiTpaC5V9SaU698aStCDFEtGBHfi_63u80ZTIJqtA2yuEu9Jq6jvcmS",
        "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",
        "EAAC4iIHrqcPMAxTGbrIpJkqWBnjc4ZGHPHZ6rU65b4CgmfKzdth6Kl4VdtR7O1IlmEljYwATKF03pH5HXq0xpnZEsLWkwtYlGRaAAI3Z0s2izxwjsjmeCFN6UCZSSFnQIGjWnlE0vuZ3X2i",
        "AGE-SECRET-KEY-1EACVYT646U0GXLTFHUN2ZSTRMRLZXTT3VNQL9XNJVZTMY5YLH8L2DMKCMX",
        "ops_eyJzaWduSW5BZGRyZXNzIjoibXkuMXBhc3N3b3JkLmNvbSIsInVzZXJBdXRoIjp7Im1ldGhvZCI6IlNSUGctNDA5NiIsImFsZyI6IlBCRVMyZy1IUzI1NiIsIml0ZXJhdGlvbnMiOjY1MDAwMCwic2FsdCI6Iml5RmRZTHFXMUpMYWtQSTZ0bTZic0UifSwiZW1haWwiOiJvc3l1bm9kdGhna3NAMXBhc3N3b3Jkc2VydmljZWFjY291bnRzLmNvbSIsInNycFgiOiI2MTNmNmFjNWE2ZGNiMzc4ZWY3YzQ4Y2QwYWU0ZTY0YzlkMTMzYzg2OTIzZWJkNTc4MWYyY2E1NTgwY2YyNzE3IiwibXVrIjp7ImFsZyI6IkEyNTZHQ00iLCJrIjoiSFVIYmVCSjh6bFowb1VYTGhEb0ZQYjlIQ2VSU3RoQjhxSFo3WkVJQ2x5diJ9fQ",
        "A3-56SHUH-S1FXDS-H1C9K-901YB-H50OR-CUWG6",
        "LTAIipss5jcc1FOvgY6LQFPL",
        "ATATT3YVihvSfvNm1Kh1r6H5m2rn-7M5DxABtSpBP7lGveCI9-1n_oHcKo2sWS0y9wjYSAIvJuhmkbax5Dxy1EjGhMB2LvSkW9rOX0LJsb9pjg1xQTda_mazRm4QFY78agvjeeLrmqvs7Qvp7pdHagvvs9PdUSe_jIgjPSGsfFiwL9UE-ZJChFGeKs=376A3F41",
        "dt0c01.UA8T7RTZDYUNCVGUXZ1OVF1Y.TRQULGVUTO1G0VMMVFKX25TVRCGVKMI3HYA0E4L9F9DLMVP3NHOP0N1NALISFWFJ",
        "pul-e86d168c44bd0926d81a6e0a8e389b4274e9c95c",
        "rubygems_545026e9dcd0f3ba784a42e125fe8c243f5a4e0406ca7fa5",
        "tfp_BqzBi8p9s6yBd4wLvej2oNRTKqBVDvL6q5fhZOo65fZWNXDJep52aGhAi-O",
    "A3TXHU66GO90952PAFHS",
    "AKCp0gCa05RFRunzqw7wZyVGOeUvfJIssDj4PTTKtb2TxxDBfz5LJF3hBGZW3M4Fz6Hq2AK7E",
    "API-67BOID7G14J4OH348Q9ZT964Z1",
    "CLOJARS_msracj375xmq536519csu3g26q2l14er5xgm0j2afa28fmphc8rwjau5i8o4",
    "cmVmdLi9M4SGsfAQk7iYY6LtGAyZjHZmya9gy4ed1wPw7X8bbGEuRtCu6hF8DKNZ",
    "castai_v1_kjLHnBNvDMoRTeJzcmP6lcPI71dC3WPmETR4biPHnY4H59ikQ2lyrBIA3fytlwlq_DFX0AsDl",
    "ctp_uHEChHYHYr0g2noa9f4DPvAIY122Ql9bw2kw",
    "cto_JRKYInhNTrJWKUnKsKrQJigYqg9BkgRdWwUZ",
    "ctr_lPOgGurL1es7ukqqeaA355XqA9adgpbthgRJK72w",
    "dnkey-u3czun31hx6qyswd1bsvsht0ub-8vm9dhkhhci7wtb1iw0yyp0oil8b89zqjobbr840quifl9c6qv7u",
    "duffel_live_hbF8hCtZUDJRzVT668Nyu0t_aT0ewkMVHrmcBNfYWun",
    "duffel_test_ksXQHNfyuLLKTrXyb92TvdwOsudoaViVMBtFqnP_njW",
    "EZAKqNtPhwE6FhJHp1wR0D6LwfeXfZFXtqWQokuBGJvu65UQ2FzulmZDo3",
    "EZTKS6wWYwA1ZLynjCVKQViBrv1hur13CqjIOrovjJXhrsKDOzzbJTvRAv",
    "FLWSECK_TEST-3f6dba1c50884adffa01738a06e8b260-X",
    "FLWPUBK_TEST-34a7e6592d4308d157faabaf8fa81f40-X",
    "FLWSECK_TEST-fb8e6b8c961d",
    "FLWSECK-29f2afaab5258c360e76d468f4abc644-X",
    "FLWPUBK-441189548b4e55154df097b2ed4a41f0-X",
    "fo1_hmTGQduyl23zvEC-BVu226UAN49lBzokTuowA3y2dsI",
    "fm1a_KUYb96IT+rnsCT6WgPGk77SmJLekfi5nX69ctOrdnYlvGcfjpQtN8EP7FZEO1f+Fx4yo8W9c/BXe7rLEOI3dTvpVBjv6Zon1ZaFzgHvIVkGveBo5eT7ey9gLlviJAaKf8HjvE/gTDY7l",
    "fm1r_Feb0Xl4wvEvzRZJv7lcSjqF8tPw/oraWl/1RTkcGEoWFMwNbdRw6mF8u9oiqaNs0Gc4LtWa4pmDP4iXJ44MG508LOvndABLZCPvmDXqQYAMWHS5FwMezMv3q",
    "fm2_4W/hNeRM0CKSSXCb12XUFWTdnEBw+Y8u3yVdkmoBYp6Sm1EPNamiRt60mny+RxplSEt47m2qlc72i4/h58Smg0x2iGF2nSvbsNH3nCUj0kHO2NDx1GeG6L0HA4uTNHNoFazROpRZ27WnV35PWTbTXSG9bU07fcLgoQ3HXMGaABhjDwgU6ngL==",
    "fio-u-qn1DoinjXer4dK0V4yg1NtIvYgi6094saKmq3yI7tAPuLdny7XjUYjbUlJCyRGlM",
    "gsk_IJh0IeSoDJwYY3ikjmJqRhyqLPExmmWl8xEe6OMiNsZZIdJw",
    "HRKU-AACJ8eNtI6YnANpH1j9OKMqgiL3lzzbdOzdOmG-0QCfT-_2hRUzGSZkc37gf",
    "ico-Ej3QEzhT6P3w9hqhpBoPnrnD9RahcVHE",
    "lsv2_pt_wlzimtlt1s1191mfzyxn85qupv9fmrlf_3loot033cr",
    "lsv2_sk_sfcr3vey761u0fhrhd7ipuuoqraskr4r_37e9irrzal",
    "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",
    "p8e-HGECSHSXg5A9Tz2e5gtzpwffalbpGp8c",
    "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",
    "pnu_3vYFMUlLTNknM2GeV45mmFd1iFR3gGAhxJ3h",
    "rdme_igs5bz4vuq8ud1zovgz507ju3mq9firh3kyqo0zj7kbla7itjjbsizk7o3bxcydh8792at",
    "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",
    "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",
    "sha256~KXPKtGr53Iju_NG4ZZfJ7lCDYgURcKYU6b0gR2HCDA7",
    "sm_aat_7Y2RMkyI2EDgaNW7",
    "sm_pat_Mzsqsz1MtZ0c4pDl",
    "sm_sat_buAIp026i0AyR6aE",
    "shippo_live_accb2d91f517d551eda7f2300fd005450f02d489",
    "shippo_test_5f41c48862ee8dc86563dfee5292b699ece4b521",
    "sgp_66524dcd55e276358f2b04b451f95acaf6f3fc69",
    "sgp_local_a4d1d8a0229b9d1db9a10e8a39303672bd1806e2",
    "sgp_ad20213a989c2b3b_fb74215b915219a72957f76cea3da948e980a81c",
    "tk-us-VUT3rPxIP3j1BHdSZkBV-Uc0Ku1XpNAFj7kICd_J654XyZjb",
    "v1.0-982d2781dad7386b8c31ebce-3f48cc9254058a4a05bee2fcf8c3febafadd0bb96df1fa62c589e2fe86d8164022e5416aea1a1ffea9bf203c5664e2f8a386a33a6fe6ccf9f29e647258b4ff375e880971d855963966",
    "xoxo-5918381495-7441586627-125204265116-5ca7b15f21b4cb9d0ab27101e29cabae",
    "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",
    "glpat-xR8PE6e8ydbgXu57Cq1JJPu-LC1bIAp.01csg5kzf",
    "glrt-t2_JrvQnPtjYR9Z5Tt0cUlSyCud58emCl.0f2v5bydh",
];

#[test]
fn finds_every_provider_in_several_layouts() {
    for k in TOKENS {
        for text in [
            format!("token {k} end"),
            format!("export SERVICE_TOKEN={k}"),
            format!("{{\"token\": \"{k}\"}}"),
            format!("Use '{k}'."),
            format!("creds:\n  token: {k}\n"),
        ] {
            assert_eq!(keys(&text), vec![(PiiKind::ApiKey, *k)], "{text}");
        }
    }
}

#[test]
fn provider_lookalikes_are_not_keys() {
    for t in [
        // Placeholders: one character repeated, `<your-token>`, elided.
        "ghu_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "dckr_pat_XXXXXXXXXXXXXXXXXXXXXXXXXXX",
        "lin_api_0000000000000000000000000000000000000000",
        "NRAK-XXXXXXXXXXXXXXXXXXXXXXXXXXX",
        "sntryu_<your-token>",
        "export PULUMI_ACCESS_TOKEN=pul-...",
        "sk-ant-...",
        "token: <your-token>",
        // Too short or too long for the provider.
        "npm_4zQw8PIeudPqvpVjcNgZBVQ9VnWpWsc",
        "pul-e86d168c44bd0926d81a6e0a8e389b4274e9c95c1",
        "dapi3b611ce71da18246f850271622260f9",
        "LTAIipss5jcc1FOvgY6L",
        "rubygems_545026e9dcd0f3ba",
        "tfp_BqzBi8p9s6yBd4wLvej2oNRTKqBVDvL6q5f",
        // Wrong alphabet: upper-case hex where lower is documented, letters where hex is.
        "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",
        "dop_v1_zzaadb76b5210b55a304ef51371394ae276d9d71741b29fc5bb9c46745d5a682",
        "NRJS-59e5b667a9bbc46330g",
        // Wrong group layout or a failing checksum.
        "PMAK-7d2e57a5caac1ccf90cc58af9-f9b685790f012ea54a5de070ba8e08f0e",
        "A3-56SHUH-S1FXDSH1C9-901YB-H50OR-CUWG6",
        "AGE-SECRET-KEY-1EACVYT646U0GXLTFHUN2ZSTRMRLZXTT3VNQL9XNJVZTMY5YLH8L2DMKCMZ",
        "glsa_P1rlpaJSBU8iftl3tqlEHIk6pvAceIwf_2297ae5z",
        // Too short, too long or the wrong alphabet for the newer providers.
        "A3TXJ5QK2M7ZP9R4W8B",
        "AKCp5bT2vQ9xL3mN7kR1wZ8yH4cJ6fD0gS",
        "API-3ZXQ7",
        "cmVmdGVzdA",
        "dnkey-k3j5h7g9f1d3s5a7p9o1i3u5y7t9r1e3w5q7z9x1c3v5b7n9m1l3k5j7h9g1f3d5s5a7p9o1i3u5",
        "duffel_live_Xk3Pq9",
        "EZAK7hQ2mVx9Lp4Rz8Tn",
        "fo1_Qm7xT2pK9vL4zR8nW3yB6cF1gH5jD0sA2eU7iO",
        "fm2_abc123",
        "fio-u-Pk3xR8mQ2vL7zT4nW9yB1cF6gH0jD5s",
        "HRKU-AA7xQ2mP9vK4",
        "ntn_4r8x2k9m1q7Zp3Lw5Tn8Rb2Yc6Vf0Hd4Jg7Ks1Mx9Qa3Ue",
        "p8e-9Fq2Lx7Rm4Tz1Wn8Kb",
        "pplx-3kQ9xT7mL2vR8",
        "pnu_7Hx2Qm9Lp4Rz",
        "rdme_xn8k2mQ7pL4vR9zT3wB6yC1fH5jD0sG8kM2nP7qR4tV9xZ3bF6hJ1lN5pS8uW2yA4cE7gI0k",
        "s-s4t2ud-ZZ3f0c27b1e84d56a0c9e2f4b7d13a859a3f0c27b1e84d56a0c9e2f4b7d13a85",
        "sha256~Xq7mK2pL9",
        "sm_pat_Xq7mK2pL9",
        "shippo_live_zz9f0c27b1e84d56a0c9e2f4b7d13a85a0c9e2f4",
        "sgp_9a3f0c27b1e84d56a0c9e2f4b7d13a85a0c9e2f",
        "sgp_local_9a3f0c27b1e84d56a0c9e2f4b7d13a85a0c9e2fz",
        "tk-us-Xq7mK2pL9vR4zT8n",
        "xkeysib-Xa3f0c27b1e84d56a0c9e2f4b7d13a859a3f0c27b1e84d56a0c9e2f4b7d13a85-Tq8Lm3Xv7Rk2Pz9N",
        "v1.0-9a3f0c27b1e84d56a0c9e2f4-b7d13a85",
        // Placeholders and documentation examples.
        "FLWSECK_TEST-SANDBOXDEMOKEY-X",
        "gsk_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        // Wrong group layout: no `-X`, the separator elsewhere.
        "FLWSECK_TEST-9a3f0c27b1e84d56a0c9e2f4b7d13a85",
        "castai_v1_Ab3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9fG1hJ3kL5mN7pQ5rS7tU9vW1x-Y3zA5bC7",
        "lsv2_pt_a8k2m9x4q7p1z5r3t6w0n8b2c4v7d9_f1h3j5k7l9xq",
        // Identifiers and release names with the same start.
        "CLOJARS_USERNAME and CLOJARS_PASSWORD",
        "ctr_LoadBalancerConfigurationManagerImpl, ctp_payment_total",
        "API-Gateway, v1.0-beta, sha256~ digests, sm_pat_count",
        // Ordinary words and identifiers with the same start.
        "the LTAI team, GR1348941 builds, ATATT3 and EAAC rules",
        "call dapi_client() then hf_hub_download(); pscale_pw_len = 8",
        "ya29.short",
    ] {
        assert!(keys(t).is_empty(), "{t}: {:?}", keys(t));
    }
}

#[test]
fn every_prefix_is_under_its_first_byte_and_longest_first() {
    for first in 0..=255u8 {
        let table = rules(first);
        for (k, rule) in table.iter().enumerate() {
            assert_eq!(rule.prefix[0], first);
            assert!(rule.prefix.len() >= 2 && rule.min <= rule.max);
            // A shorter prefix listed earlier would shadow this one.
            assert!(!table[..k].iter().any(|e| rule.prefix.starts_with(e.prefix)), "{}", String::from_utf8_lossy(rule.prefix));
        }
    }
}
